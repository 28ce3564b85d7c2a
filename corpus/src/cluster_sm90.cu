// Hopper thread-block clusters: __cluster_dims__ (=> .reqnctapercluster),
// __launch_bounds__ with max blocks per cluster (=> .maxclusterrank),
// distributed shared memory via cluster.map_shared_rank, cluster.sync,
// __maxnreg__, and fence/barrier intrinsics.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) cluster_hist(const int *in, int *bins, int n, int nbins)
{
    extern __shared__ int smem[];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    int per_block = nbins / cluster.num_blocks();
    for (int i = threadIdx.x; i < per_block; i += blockDim.x)
        smem[i] = 0;
    cluster.sync();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int b = in[i] % nbins;
        int dst = b / per_block;
        int *remote = cluster.map_shared_rank(smem, dst);
        atomicAdd(remote + b % per_block, 1);
    }
    cluster.sync();
    for (int i = threadIdx.x; i < per_block; i += blockDim.x)
        atomicAdd(&bins[rank * per_block + i], smem[i]);
}

__global__ void __cluster_dims__(4, 2, 1) __launch_bounds__(256) cluster_3d(float *out)
{
    cg::cluster_group cluster = cg::this_cluster();
    __shared__ float s[256];
    s[threadIdx.x] = cluster.block_rank();
    cluster.sync();
    float *peer = cluster.map_shared_rank(s, (cluster.block_rank() + 1) % cluster.num_blocks());
    float v = peer[threadIdx.x];
    cluster.sync();
    dim3 bi = cluster.block_index();
    out[blockIdx.x * 256 + threadIdx.x] = v + bi.x + bi.y * 10 + cluster.dim_blocks().x;
}

__global__ void __launch_bounds__(128, 2, 8) cluster_runtime(int *out)
{
    // cluster size chosen at launch time (cudaLaunchKernelEx); at most 8 blocks
    cg::cluster_group cluster = cg::this_cluster();
    out[blockIdx.x] = cluster.num_blocks();
    cluster.sync();
}

__global__ void __maxnreg__(64) __cluster_dims__(2) cluster_maxnreg(double *x)
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;" ::: "memory");
    asm volatile("fence.acq_rel.cluster;" ::: "memory");
    x[threadIdx.x] = sqrt(x[threadIdx.x]) + r;
}
