// General inline PTX: arithmetic with carries, predicates and local labels
// (%=), special registers, prmt/bfe/bfi/lop3, vector loads with cache hints,
// volatile memory ops, nanosleep, multiple outputs, "memory" clobbers.
#include <cstdint>

__device__ __forceinline__ uint64_t add_u64_carry(uint32_t alo, uint32_t ahi, uint32_t blo,
                                                  uint32_t bhi, uint32_t &carry)
{
    uint32_t lo, hi;
    asm("add.cc.u32 %0, %3, %5;\n\t"
        "addc.cc.u32 %1, %4, %6;\n\t"
        "addc.u32 %2, 0, 0;"
        : "=r"(lo), "=r"(hi), "=r"(carry)
        : "r"(alo), "r"(ahi), "r"(blo), "r"(bhi));
    return ((uint64_t)hi << 32) | lo;
}

__device__ __forceinline__ unsigned smid()
{
    unsigned r;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
    return r;
}

__device__ __forceinline__ uint64_t globaltimer()
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ int clamp_pred(int x, int lo, int hi)
{
    int r;
    asm("{\n\t"
        ".reg .pred p, q;\n\t"
        "setp.lt.s32 p, %1, %2;\n\t"
        "setp.gt.s32 q, %1, %3;\n\t"
        "mov.s32 %0, %1;\n\t"
        "@p mov.s32 %0, %2;\n\t"
        "@q mov.s32 %0, %3;\n\t"
        "}"
        : "=r"(r)
        : "r"(x), "r"(lo), "r"(hi));
    return r;
}

__device__ __forceinline__ int count_loop(int n)
{
    int c;
    asm("{\n\t"
        ".reg .pred done;\n\t"
        ".reg .s32 i;\n\t"
        "mov.s32 i, 0;\n\t"
        "mov.s32 %0, 0;\n"
        "LOOP_%=:\n\t"
        "setp.ge.s32 done, i, %1;\n\t"
        "@done bra.uni END_%=;\n\t"
        "add.s32 %0, %0, i;\n\t"
        "add.s32 i, i, 1;\n\t"
        "bra.uni LOOP_%=;\n"
        "END_%=:\n\t"
        "}"
        : "=r"(c)
        : "r"(n));
    return c;
}

__device__ __forceinline__ float4 ld_nc_v4(const float4 *p)
{
    float4 v;
    asm volatile("ld.global.nc.L1::no_allocate.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
    return v;
}

__device__ __forceinline__ void st_cs(float *p, float v)
{
    asm volatile("st.global.cs.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory");
}

__global__ void asm_kernel(const float4 *in, float *out, uint32_t *u, uint64_t *times, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    uint64_t t0 = globaltimer();
    float4 v = ld_nc_v4(in + (i % n));
    uint32_t carry;
    uint64_t s = add_u64_carry(u[0], u[1], (uint32_t)i, 0xffffffffu, carry);
    uint32_t perm, field, ins, l3;
    asm("prmt.b32 %0, %1, %2, 0x3210;" : "=r"(perm) : "r"(u[2]), "r"(u[3]));
    asm("bfe.u32 %0, %1, 8, 4;" : "=r"(field) : "r"(perm));
    asm("bfi.b32 %0, %1, %2, 4, 8;" : "=r"(ins) : "r"(field), "r"(u[4]));
    asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(l3) : "r"(ins), "r"(perm), "r"(carry));
    int c = clamp_pred(i - 64, -16, 16) + count_loop(i & 15);
    float r;
    asm("fma.rn.ftz.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(v.x), "f"(v.y), "f"(v.z));
    asm("ex2.approx.ftz.f32 %0, %0;" : "+f"(r));
    double dd;
    asm("cvt.f64.f32 %0, %1;" : "=d"(dd) : "f"(v.w));
    unsigned short hs;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(hs) : "f"(r));
    asm volatile("nanosleep.u32 %0;" ::"r"(100));
    asm volatile("membar.gl;" ::: "memory");
    st_cs(out + i, r + (float)dd + c + hs + smid());
    u[5 + (i & 3)] = (uint32_t)s ^ l3;
    times[i] = globaltimer() - t0;
    if (n < 0)
        asm volatile("trap;" ::: "memory");
}

__global__ void asm_brkpt(int flag)
{
    if (flag == 12345) {
        asm volatile("brkpt;");
        asm volatile("exit;");
    }
    asm volatile("bar.sync 0;");
    asm volatile("pmevent 1;");
}
