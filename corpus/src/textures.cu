// Texture objects and surface objects (bindless): 1D fetch, 2D/3D filtered
// reads, layered textures, tex2Dgather, surface reads/writes.
__global__ void tex1d_fetch(cudaTextureObject_t t, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<float>(t, i) + tex1D<float>(t, i + 0.5f);
}

__global__ void tex2d_bilinear(cudaTextureObject_t t, float4 *out, int w, int h, float theta)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float u = x / (float)w - 0.5f, v = y / (float)h - 0.5f;
    float tu = u * cosf(theta) - v * sinf(theta) + 0.5f;
    float tv = v * cosf(theta) + u * sinf(theta) + 0.5f;
    float4 a = tex2D<float4>(t, tu, tv);
    float4 b = tex2DLod<float4>(t, tu, tv, 1.5f);
    float4 g = tex2Dgather<float4>(t, tu, tv, 1);
    out[y * w + x] = make_float4(a.x + b.x + g.x, a.y + b.y, a.z + b.z, a.w);
}

__global__ void tex3d_layered(cudaTextureObject_t vol, cudaTextureObject_t layered,
                              cudaTextureObject_t cube, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float f = i / (float)n;
    float r = tex3D<float>(vol, f, 1 - f, 0.5f);
    r += tex2DLayered<float>(layered, f, f, i % 4);
    r += texCubemap<float>(cube, f, 1.0f, -f);
    int4 iv = tex1Dfetch<int4>(layered, i);
    out[i] = r + iv.x;
}

__global__ void surface_rw(cudaSurfaceObject_t in, cudaSurfaceObject_t outs, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    uchar4 p = surf2Dread<uchar4>(in, x * 4, y);
    uchar4 q = surf2Dread<uchar4>(in, x * 4, y, cudaBoundaryModeClamp);
    uchar4 o = make_uchar4(255 - p.x, 255 - p.y, (p.z + q.z) / 2, p.w);
    surf2Dwrite(o, outs, x * 4, y);
    float v = surf1Dread<float>(in, x * 4);
    surf1Dwrite(v * 2, outs, x * 4, cudaBoundaryModeZero);
    surf3Dwrite(make_float2(v, v), outs, x * 8, y, 1);
}
