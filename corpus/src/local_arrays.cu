// Thread-local arrays indexed by runtime values (stay in local memory),
// __noinline__ functions with structs passed by value, and big by-value params.
struct mat4 {
    float m[4][4];
};

struct particle {
    float3 pos;
    float3 vel;
    float mass;
    int id;
};

struct __align__(16) aligned_blob {
    int4 a;
    int4 b;
    double c;
};

__device__ __noinline__ mat4 mat_mul(mat4 a, mat4 b)
{
    mat4 r;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            float s = 0;
            for (int k = 0; k < 4; k++)
                s += a.m[i][k] * b.m[k][j];
            r.m[i][j] = s;
        }
    return r;
}

__device__ __noinline__ particle step(particle p, float dt, float3 g)
{
    p.vel.x += g.x * dt;
    p.vel.y += g.y * dt;
    p.vel.z += g.z * dt;
    p.pos.x += p.vel.x * dt;
    p.pos.y += p.vel.y * dt;
    p.pos.z += p.vel.z * dt;
    return p;
}

__device__ __noinline__ double blob_sum(aligned_blob b, int sel)
{
    int v[8] = {b.a.x, b.a.y, b.a.z, b.a.w, b.b.x, b.b.y, b.b.z, b.b.w};
    return v[sel & 7] + b.c;
}

__global__ void histogram_local(const int *keys, int *out, int n, int nbins)
{
    int hist[64];
    for (int i = 0; i < 64; i++)
        hist[i] = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        hist[keys[i] % nbins]++;  // runtime index => local memory
    for (int i = 0; i < nbins && i < 64; i++)
        atomicAdd(&out[i], hist[i]);
}

__global__ void sort_small(float *data, const int *perm)
{
    float buf[32];
    int base = (blockIdx.x * blockDim.x + threadIdx.x) * 32;
    for (int i = 0; i < 32; i++)
        buf[perm[i] & 31] = data[base + i];
    // insertion sort on a local array
    for (int i = 1; i < 32; i++) {
        float key = buf[i];
        int j = i - 1;
        while (j >= 0 && buf[j] > key) {
            buf[j + 1] = buf[j];
            j--;
        }
        buf[j + 1] = key;
    }
    for (int i = 0; i < 32; i++)
        data[base + i] = buf[i];
}

__global__ void transform(mat4 *mats, particle *ps, aligned_blob blob, double *out, int n, float dt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    mats[i] = mat_mul(mats[i], mats[(i + 1) % n]);
    ps[i] = step(ps[i], dt, make_float3(0, -9.8f, 0));
    out[i] = blob_sum(blob, ps[i].id);
}
