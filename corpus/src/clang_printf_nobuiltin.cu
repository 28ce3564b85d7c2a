// clang CUDA mode with -fno-builtin-printf: printf is not lowered to vprintf,
// leaving a residual variadic call to `printf` that ptxas rejects
// ("Call has wrong number of parameters").
#include "clang_cuda_min.h"

__global__ void say(int n, float f)
{
    printf("thread %d n=%d f=%f\n", threadIdx.x, n, (double)f);
}
