// Kernels of the image filters: 3x3 median, 3x3 convolution with a kernel in
// global memory, and per-thread 16-bin histograms of pixel tiles.
#include "filters.h"

__global__ void median3x3(const float *in, float *out, int w, int h)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < w * h; i += gridDim.x * blockDim.x) {
        float win[9];
        gather3x3(in, i % w, i / w, w, h, win);
        out[i] = median9(win);
    }
}

__global__ void convolve3x3(const float *in, const float *kern, float *out, int w, int h)
{
    float k[9];
    for (int j = 0; j < 9; j++)
        k[j] = kern[j];
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < w * h; i += gridDim.x * blockDim.x) {
        float win[9];
        gather3x3(in, i % w, i / w, w, h, win);
        out[i] = convolve9(win, k);
    }
}

// Each thread counts the tile of `tile` pixels it owns and writes the tile's
// most frequent bin; its counts are added to the global histogram.
__global__ void tile_modes(const unsigned char *px, int *hist, int *mode, int tiles, int tile)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= tiles)
        return;
    int bins[16];
    for (int b = 0; b < 16; b++)
        bins[b] = 0;
    hist16_add(px + t * tile, tile, bins);
    mode[t] = hist16_mode(bins);
    for (int b = 0; b < 16; b++)
        if (bins[b])
            atomicAdd(&hist[b], bins[b]);
}
