__device__ float axpy(float a, float x, float y);  // in axpy.cu

__global__ void saxpy(float a, const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = axpy(a, x[i], y[i]);
}
