// Hopper warpgroup MMA via inline PTX (requires sm_90a): shared-memory matrix
// descriptors, wgmma.fence / commit_group / wait_group, m64n64k16 f16 -> f32,
// plus setmaxnreg and mbarrier-based cp.async.bulk (TMA-style 1D copy).
#include <cuda_fp16.h>
#include <cstdint>

__device__ __forceinline__ uint64_t make_desc(const void *smem)
{
    uint64_t addr = (uint64_t)__cvta_generic_to_shared(smem);
    uint64_t desc = 0;
    desc |= (addr & 0x3FFFF) >> 4;          // start address
    desc |= (uint64_t)(16 >> 4) << 16;      // leading byte offset
    desc |= (uint64_t)(1024 >> 4) << 32;    // stride byte offset
    desc |= (uint64_t)1 << 62;              // 128B swizzle
    return desc;
}

__global__ void __launch_bounds__(128) wgmma_kernel(const half *A, const half *B, float *C,
                                                    int ktiles)
{
    __shared__ __align__(1024) half sA[64 * 16];
    __shared__ __align__(1024) half sB[64 * 16];
    __shared__ __align__(8) uint64_t bar;
    float d[32];
    for (int i = 0; i < 32; i++)
        d[i] = 0.f;
    unsigned bar_addr = (unsigned)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_addr));
    __syncthreads();
    unsigned phase = 0;
    for (int kt = 0; kt < ktiles; kt++) {
        if (threadIdx.x == 0) {
            unsigned bytes = sizeof(sA) + sizeof(sB);
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar_addr),
                         "r"(bytes));
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                         "[%0], [%1], %2, [%3];" ::"r"((unsigned)__cvta_generic_to_shared(sA)),
                         "l"(A + kt * 64 * 16), "r"((unsigned)sizeof(sA)), "r"(bar_addr)
                         : "memory");
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                         "[%0], [%1], %2, [%3];" ::"r"((unsigned)__cvta_generic_to_shared(sB)),
                         "l"(B + kt * 64 * 16), "r"((unsigned)sizeof(sB)), "r"(bar_addr)
                         : "memory");
        }
        asm volatile("{\n"
                     ".reg .pred done;\n"
                     "WAIT_%=:\n"
                     "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                     "@!done bra WAIT_%=;\n"
                     "}\n" ::"r"(bar_addr),
                     "r"(phase));
        phase ^= 1;
        uint64_t da = make_desc(sA), db = make_desc(sB);
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
        asm volatile(
            "{\n"
            "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
            "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
            "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
            "%32, %33, 1, 1, 1, 0, 0;\n"
            "}\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
              "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]),
              "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]),
              "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
              "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]),
              "+f"(d[31])
            : "l"(da), "l"(db));
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
        __syncthreads();
    }
    int t = threadIdx.x;
    for (int i = 0; i < 32; i++)
        C[t * 32 + i] = d[i];
}

__global__ void __launch_bounds__(384, 1) producer_consumer(float *out)
{
    int wg = threadIdx.x / 128;
    if (wg == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
        out[threadIdx.x] = 0.f;
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
        out[threadIdx.x] = 1.f * wg;
    }
}
