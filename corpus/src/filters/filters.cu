// The filter helpers.
#include "filters.h"

// The 3x3 neighbourhood of (x, y), the border repeated.
__device__ void gather3x3(const float *img, int x, int y, int w, int h, float win[9])
{
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int xx = min(max(x + dx, 0), w - 1);
            int yy = min(max(y + dy, 0), h - 1);
            win[(dy + 1) * 3 + dx + 1] = img[yy * w + xx];
        }
}

// Median of nine by insertion sort (sorts v in place).
__device__ float median9(float v[9])
{
    for (int i = 1; i < 9; i++) {
        float t = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > t) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = t;
    }
    return v[4];
}

__device__ float convolve9(const float win[9], const float k[9])
{
    float s = 0.0f;
    for (int i = 0; i < 9; i++)
        s += win[i] * k[i];
    return s;
}

// Adds the high nibbles of n pixels to 16 bins.
__device__ void hist16_add(const unsigned char *px, int n, int bins[16])
{
    for (int i = 0; i < n; i++)
        bins[px[i] >> 4]++;
}

__device__ int hist16_mode(const int bins[16])
{
    int best = 0;
    for (int b = 1; b < 16; b++)
        if (bins[b] > bins[best])
            best = b;
    return best;
}
