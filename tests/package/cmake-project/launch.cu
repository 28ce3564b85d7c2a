// Dynamic parallelism: a kernel launching one defined in another file
// (child.cu).  ptxas alone cannot resolve the device runtime's launch
// entry points: ptxlink --ptxas compiles it relocatable and nvlink links
// libcudadevrt.
__global__ void halve(float *data, int n);

__global__ void launch(float *data, int n)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        halve<<<(n + 127) / 128, 128>>>(data, n);
}
