// The kernel launch.cu launches from the device.
__global__ void halve(float *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] *= 0.5f;
}
