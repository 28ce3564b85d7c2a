// A device function for host.cu, and a kernel host code never names:
// every .nvHR* section holds one NUL.
__device__ int helper(int x) { return x + 1; }
__global__ void bkern(int *p) { p[0] = helper(2); }
