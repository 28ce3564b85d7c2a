// __constant__ / __device__ globals with initializers: structs, arrays,
// pointers to other globals, function pointers; static and dynamic __shared__.
typedef int (*cb_t)(int);

struct config {
    int id;
    float weights[3];
    const int *table;
    cb_t callback;
    struct {
        short lo, hi;
    } range;
};

__device__ int twice(int x) { return 2 * x; }
__device__ int square(int x) { return x * x; }
__device__ int negate(int x) { return -x; }

__device__ int g_table[8] = {1, 1, 2, 3, 5, 8, 13, 21};
__device__ int *g_table_ptr = g_table;
__device__ int *g_table_mid = &g_table[4];
__device__ int **g_ptr_ptr = &g_table_ptr;
__device__ cb_t g_callbacks[3] = {twice, square, negate};
__device__ config g_configs[2] = {
    {1, {0.5f, 0.25f, 0.125f}, g_table, twice, {-5, 5}},
    {2, {1.0f, 2.0f, 3.0f}, &g_table[2], square, {0, 100}},
};
__constant__ float c_coeffs[2][4] = {{1.0f, 2.0f, 3.0f, 4.0f}, {-1.0f, -2.0f, -3.0f, -4.0f}};
__constant__ double c_pi = 3.14159265358979323846;
__constant__ char c_message[] = "constant string";
__constant__ unsigned long long c_masks[4] = {0xFFull, 0xFF00ull, 0xFFFF0000ull,
                                              0x8000000000000000ull};
__device__ float g_uninit[1024];
__device__ short g_shorts[5] = {-1, 2, -3, 4, -5};
__device__ unsigned char g_bytes[7] = {1, 2, 3, 250, 251, 252, 253};
__device__ float4 g_vec4 = {1.0f, -0.0f, 1e30f, 1e-30f};
__device__ double g_special[3] = {1.0 / 3.0, -2.5e-300, 6.02214076e23};
__device__ bool g_flag = true;

__global__ void use_globals(int *out, int sel, int n)
{
    __shared__ int s_static[256];
    __shared__ float s_tile[16][17];
    extern __shared__ double s_dynamic[];

    int t = threadIdx.x;
    s_static[t] = g_table[t & 7] + (*g_ptr_ptr)[t & 3] + g_table_mid[t & 3];
    s_tile[t & 15][t >> 4 & 15] = c_coeffs[sel & 1][t & 3];
    s_dynamic[t] = c_pi * t + g_special[t % 3];
    __syncthreads();
    config c = g_configs[sel & 1];
    int v = c.callback(s_static[(t + 1) & 255]) + g_callbacks[sel % 3](t) + c.table[t & 1];
    v += (int)(c.weights[t % 3] * s_tile[t >> 4 & 15][t & 15]);
    v += (int)s_dynamic[(t + 7) % blockDim.x];
    v += c_message[t & 7] + g_shorts[t % 5] + g_bytes[t % 7];
    v ^= (int)(c_masks[t & 3] >> 3);
    if (g_flag && v >= c.range.lo && v <= c.range.hi)
        v = 0;
    if (t < n)
        out[blockIdx.x * blockDim.x + t] = v + (int)g_vec4.x;
    g_uninit[t] = v;
}

__global__ void dyn_shared_only(float *out)
{
    extern __shared__ float4 s_dyn4[];
    s_dyn4[threadIdx.x] = make_float4(threadIdx.x, 1, 2, 3);
    __syncthreads();
    float4 v = s_dyn4[blockDim.x - 1 - threadIdx.x];
    out[threadIdx.x] = v.x + v.y + v.z + v.w;
}
