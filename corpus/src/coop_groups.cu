// Cooperative groups: thread_block, tiled_partition (static and dynamic),
// coalesced_threads, cg::reduce / inclusive_scan, grid-wide sync (grid_group,
// needs -rdc=true and a cooperative launch).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

__device__ int tile_sum(cg::thread_block_tile<32> g, int v)
{
    for (int i = g.size() / 2; i > 0; i /= 2)
        v += g.shfl_down(v, i);
    return v;
}

__device__ float group_reduce(cg::thread_group g, float *tmp, float v)
{
    int lane = g.thread_rank();
    for (int i = g.size() / 2; i > 0; i /= 2) {
        tmp[lane] = v;
        g.sync();
        if (lane < i)
            v += tmp[lane + i];
        g.sync();
    }
    return v;
}

__global__ void cg_block_kernel(const int *in, int *out, float *fout, int n)
{
    __shared__ float tmp[256];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<8> tile8 = cg::tiled_partition<8>(block);
    int i = block.group_index().x * block.size() + block.thread_rank();
    int v = i < n ? in[i] : 0;
    int ws = tile_sum(warp, v);
    int t8 = cg::reduce(tile8, v, cg::plus<int>());
    int sc = cg::inclusive_scan(warp, v);
    int mx = cg::reduce(warp, v, cg::greater<int>());
    cg::thread_group dyn = cg::tiled_partition(block, 16);
    float r = group_reduce(dyn, tmp + (block.thread_rank() / 16) * 16, (float)v);
    if (v & 1) {
        cg::coalesced_group active = cg::coalesced_threads();
        int rank = active.thread_rank();
        v += active.shfl(v, 0) + rank + (int)active.size();
        active.sync();
    }
    block.sync();
    if (warp.any(v > 10) && warp.thread_rank() == 0)
        out[i / 32] = ws + t8 + sc + mx + (int)warp.ballot(v > 5) + v;
    if (i < n)
        fout[i] = r;
}

__global__ void cg_grid_kernel(float *data, float *partial, int n, int iters)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ float s[256];
    for (int it = 0; it < iters; it++) {
        float acc = 0;
        for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size())
            acc += data[i];
        s[block.thread_rank()] = acc;
        block.sync();
        for (int st = block.size() / 2; st > 0; st >>= 1) {
            if (block.thread_rank() < st)
                s[block.thread_rank()] += s[block.thread_rank() + st];
            block.sync();
        }
        if (block.thread_rank() == 0)
            partial[block.group_index().x] = s[0];
        grid.sync();
        if (grid.thread_rank() == 0) {
            float tot = 0;
            for (int b = 0; b < gridDim.x; b++)
                tot += partial[b];
            partial[0] = tot;
        }
        grid.sync();
        for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size())
            data[i] /= partial[0];
        grid.sync();
    }
}
