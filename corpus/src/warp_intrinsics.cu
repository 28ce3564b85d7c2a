// Warp-level primitives: __shfl*_sync variants, vote (__ballot/__any/__all),
// __activemask, __match_any/__match_all (sm_70+), __reduce_*_sync (sm_80+),
// __syncwarp, lane masks, popc/ffs/brev/clz.
__device__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}

__device__ double warp_max_xor(double v)
{
    for (int o = 16; o > 0; o >>= 1)
        v = fmax(v, __shfl_xor_sync(0xffffffff, v, o));
    return v;
}

__device__ int warp_inclusive_scan(int v)
{
    int lane = threadIdx.x & 31;
    for (int o = 1; o < 32; o <<= 1) {
        int n = __shfl_up_sync(0xffffffff, v, o);
        if (lane >= o)
            v += n;
    }
    return v;
}

__global__ void warp_kernel(const float *in, float *out, const int *keys, unsigned *masks,
                            long long *l64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    float x = i < n ? in[i] : 0.f;
    float s = warp_sum(x);
    double m = warp_max_xor((double)x);
    int scan = warp_inclusive_scan((int)x);
    float bcast = __shfl_sync(0xffffffff, x, 0);
    float rot = __shfl_sync(0xffffffff, x, (lane + 1) & 31, 16);  // width 16
    long long w64 = __shfl_sync(0xffffffff, l64[i & 1023], lane ^ 3);

    unsigned act = __activemask();
    unsigned ballot = __ballot_sync(0xffffffff, x > 0.f);
    int any = __any_sync(0xffffffff, x > 100.f);
    int all = __all_sync(0xffffffff, x >= 0.f);
    unsigned same = __match_any_sync(0xffffffff, keys[i & 1023]);
    int pred;
    unsigned allsame = __match_all_sync(0xffffffff, keys[0], &pred);
    unsigned lt_mask;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt_mask));
    int rank = __popc(same & lt_mask);
    int leader = __ffs(same) - 1;

    unsigned rsum = __reduce_add_sync(0xffffffff, (unsigned)keys[i & 1023]);
    int rmin = __reduce_min_sync(0xffffffff, keys[i & 1023]);
    unsigned rmax = __reduce_max_sync(0xffffffff, (unsigned)scan);
    unsigned rand_ = __reduce_and_sync(0xffffffff, ballot);
    unsigned ror = __reduce_or_sync(0xffffffff, same);
    unsigned rxor = __reduce_xor_sync(act, __brev(lane));

    if (x > 0.5f) {
        unsigned sub = __activemask();
        float partial = __shfl_down_sync(sub, x, 1);
        x += partial;
        __syncwarp(sub);
    }
    __syncwarp();
    if (i < n) {
        out[i] = s + (float)m + scan + bcast + rot + (float)w64 + any + all + rank + leader + x;
        masks[i] = ballot ^ act ^ allsame ^ pred ^ rsum ^ rmin ^ rmax ^ rand_ ^ ror ^ rxor ^
                   __clz(ballot);
    }
}
