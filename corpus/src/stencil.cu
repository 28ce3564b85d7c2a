// 2D 5-point and 3D 7-point stencils with shared-memory tiles and halos,
// __restrict__/__ldg, and a Jacobi iteration with loop unrolling.
#define TX 32
#define TY 8
#define R 1

__global__ void jacobi2d(const float *__restrict__ in, float *__restrict__ out, int nx, int ny)
{
    __shared__ float tile[TY + 2 * R][TX + 2 * R];
    int gx = blockIdx.x * TX + threadIdx.x;
    int gy = blockIdx.y * TY + threadIdx.y;
    int lx = threadIdx.x + R, ly = threadIdx.y + R;
    auto at = [&](int x, int y) {
        x = min(max(x, 0), nx - 1);
        y = min(max(y, 0), ny - 1);
        return __ldg(&in[y * nx + x]);
    };
    tile[ly][lx] = at(gx, gy);
    if (threadIdx.x < R) {
        tile[ly][lx - R] = at(gx - R, gy);
        tile[ly][lx + TX] = at(gx + TX, gy);
    }
    if (threadIdx.y < R) {
        tile[ly - R][lx] = at(gx, gy - R);
        tile[ly + TY][lx] = at(gx, gy + TY);
    }
    __syncthreads();
    if (gx < nx && gy < ny)
        out[gy * nx + gx] =
            0.25f * (tile[ly][lx - 1] + tile[ly][lx + 1] + tile[ly - 1][lx] + tile[ly + 1][lx]);
}

__global__ void stencil3d(const double *__restrict__ u, double *__restrict__ v, int nx, int ny,
                          int nz, double c0, double c1)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int y = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (x >= nx - 1 || y >= ny - 1)
        return;
    size_t sxy = (size_t)nx * ny;
    double below = u[sxy * 0 + y * nx + x], cur = u[sxy + y * nx + x];
#pragma unroll 4
    for (int z = 1; z < nz - 1; z++) {
        double above = u[sxy * (z + 1) + y * nx + x];
        size_t c = sxy * z + y * nx + x;
        v[c] = c0 * cur + c1 * (u[c - 1] + u[c + 1] + u[c - nx] + u[c + nx] + below + above);
        below = cur;
        cur = above;
    }
}

__global__ void conv1d(const float *in, const float *__restrict__ w, float *out, int n, int klen)
{
    extern __shared__ float sw[];
    for (int i = threadIdx.x; i < klen; i += blockDim.x)
        sw[i] = w[i];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = 0;
    for (int k = 0; k < klen; k++) {
        int j = i + k - klen / 2;
        if (j >= 0 && j < n)
            acc = fmaf(in[j], sw[k], acc);
    }
    out[i] = acc;
}
