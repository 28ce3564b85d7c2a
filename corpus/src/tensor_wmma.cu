// WMMA tensor-core API: half/float 16x16x16, bf16, tf32 (sm_80), double
// 8x8x4 (sm_80), int8 and sub-byte u4 (experimental).
#include <mma.h>
#include <cuda_bf16.h>
using namespace nvcuda;

__global__ void wmma_half(const half *a, const half *b, float *c, int M, int N, int K)
{
    int wm = (blockIdx.y * blockDim.y + threadIdx.y);
    int wn = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(fa, a + wm * 16 * K + k, K);
        wmma::load_matrix_sync(fb, b + wn * 16 * K + k, K);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    for (int i = 0; i < fc.num_elements; i++)
        fc.x[i] *= 0.5f;
    wmma::store_matrix_sync(c + wm * 16 * N + wn * 16, fc, N, wmma::mem_row_major);
}

__global__ void wmma_bf16_tf32(const __nv_bfloat16 *a, const __nv_bfloat16 *b, const float *fa_,
                               const float *fb_, float *c, float *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a16;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> b16;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(a16, a, 16);
    wmma::load_matrix_sync(b16, b, 16);
    wmma::fill_fragment(acc, 1.0f);
    wmma::mma_sync(acc, a16, b16, acc);
    wmma::store_matrix_sync(c, acc, 16, wmma::mem_col_major);

    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> at;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> bt;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> ct;
    wmma::load_matrix_sync(at, fa_, 8);
    wmma::load_matrix_sync(bt, fb_, 8);
    for (int i = 0; i < at.num_elements; i++)
        at.x[i] = wmma::__float_to_tf32(at.x[i]);
    wmma::fill_fragment(ct, 0.0f);
    wmma::mma_sync(ct, at, bt, ct);
    wmma::store_matrix_sync(d, ct, 16, wmma::mem_row_major);
}

__global__ void wmma_double(const double *a, const double *b, double *c)
{
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
    wmma::load_matrix_sync(fa, a, 4);
    wmma::load_matrix_sync(fb, b, 4);
    wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 8, wmma::mem_row_major);
}

__global__ void wmma_int8(const signed char *a, const signed char *b, int *c)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
    wmma::fill_fragment(fc, 0);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc, true);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
