// Hand-rolled tensor-core GEMM tile with inline PTX: cp.async global->shared,
// ldmatrix (x4, x2.trans), mma.sync.m16n8k16 f16/f32 and m16n8k8 tf32,
// movmatrix-free swizzled shared-memory layout.
#include <cuda_fp16.h>
#include <cstdint>

__device__ __forceinline__ void cp_async16(void *smem, const void *gmem)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
}

__device__ __forceinline__ void cp_async_wait_all()
{
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;\n" ::: "memory");
}

__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], const void *smem)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(s));
}

__device__ __forceinline__ void ldmatrix_x2_trans(unsigned (&r)[2], const void *smem)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(s));
}

__device__ __forceinline__ void mma_16816(float (&d)[4], const unsigned (&a)[4],
                                          const unsigned (&b)[2], const float (&c)[4])
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};\n"
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]),
                   "f"(c[1]), "f"(c[2]), "f"(c[3]));
}

__device__ __forceinline__ void mma_1688_tf32(float (&d)[4], const unsigned (&a)[4],
                                              const unsigned (&b)[2])
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// One warp computes a 16x8 tile of C = A(16xK) * B(Kx8).
__global__ void __launch_bounds__(128) gemm_tile(const half *A, const half *B, float *C, int K)
{
    __shared__ __align__(128) half sA[4][16 * 16];
    __shared__ __align__(128) half sB[4][16 * 8];
    int warp = threadIdx.x / 32, lane = threadIdx.x & 31;
    float acc[4] = {0, 0, 0, 0};
    for (int k0 = 0; k0 < K; k0 += 16) {
        // 16x16 halves = 512 B = 32 x 16 B chunks, one per lane
        cp_async16(&sA[warp][lane * 8], A + (size_t)(lane / 2) * K + k0 + (lane & 1) * 8);
        if (lane < 16)
            cp_async16(&sB[warp][lane * 8], B + (size_t)(k0 + lane) * 8);
        cp_async_wait_all();
        __syncwarp();
        unsigned a[4], b[2];
        ldmatrix_x4(a, &sA[warp][(lane % 16) * 16 + (lane / 16) * 8]);
        ldmatrix_x2_trans(b, &sB[warp][(lane % 16) * 8]);
        mma_16816(acc, a, b, acc);
        __syncwarp();
    }
    unsigned ta[4], tb[2];
    for (int i = 0; i < 4; i++)
        asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(ta[i]) : "f"(acc[i]));
    tb[0] = ta[0];
    tb[1] = ta[3];
    mma_1688_tf32(acc, ta, tb);
    int row = lane / 4, col = (lane % 4) * 2;
    C[(warp * 16 + row) * 8 + col] = acc[0];
    C[(warp * 16 + row) * 8 + col + 1] = acc[1];
    C[(warp * 16 + row + 8) * 8 + col] = acc[2];
    C[(warp * 16 + row + 8) * 8 + col + 1] = acc[3];
}

__global__ void mma_int8(const int *a, const int *b, int *c)
{
    int d0, d1, d2, d3;
    int lane = threadIdx.x & 31;
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                 "{%8,%9}, {%10,%10,%10,%10};"
                 : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
                 : "r"(a[lane * 4]), "r"(a[lane * 4 + 1]), "r"(a[lane * 4 + 2]),
                   "r"(a[lane * 4 + 3]), "r"(b[lane * 2]), "r"(b[lane * 2 + 1]), "r"(0));
    int4 out = make_int4(d0, d1, d2, d3);
    reinterpret_cast<int4 *>(c)[lane] = out;
}
