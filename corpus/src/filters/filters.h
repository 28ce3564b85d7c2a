// Image-filter helpers with local arrays (filters.cu), called from the kernels in
// image.cu (compiled with -rdc=true).  The windows and histograms are per-thread
// arrays handed to the helpers by pointer: across translation units they must
// live in local memory (a stack frame); inlined, they can become registers.
#pragma once

__device__ void gather3x3(const float *img, int x, int y, int w, int h, float win[9]);
__device__ float median9(float v[9]);
__device__ float convolve9(const float win[9], const float k[9]);
__device__ void hist16_add(const unsigned char *px, int n, int bins[16]);
__device__ int hist16_mode(const int bins[16]);
