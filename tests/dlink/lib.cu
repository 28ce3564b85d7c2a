// The device library of tests/dlink/dlink.sh: scaled, which main.cu's
// kernel calls, and bigtable, a 64 KB table nothing reaches (no device
// code and no host code names it): nvlink keeps it, ptxlink -dlink drops it.
__device__ int bigtable[16384] = {1, 2, 3, 4};
__device__ float weights[4] = {0.25f, 0.5f, 0.75f, 1.0f};
__device__ float scaled(float x) { return x * weights[2] + 1.0f; }
