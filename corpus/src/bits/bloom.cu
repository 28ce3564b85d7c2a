// A Bloom filter over 2^log2_bits bits with `probes` hashes per key, built and
// queried with the bit helpers.
#include "bits.h"

__global__ void bloom_insert(unsigned *filter, const unsigned *keys, int n, int log2_bits,
                             int probes)
{
    unsigned mask = (1u << (log2_bits & 31)) - 1u;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned k = keys[i];
        for (int p = 0; p < probes; p++) {
            unsigned b = hash_u32(k, 0x9747b28cu + p) & mask;
            atomicOr(&filter[b >> 5], 1u << (b & 31));
        }
    }
}

__global__ void bloom_query(const unsigned *filter, const unsigned *keys, int *hits, int n,
                            int log2_bits, int probes)
{
    unsigned mask = (1u << (log2_bits & 31)) - 1u;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned k = keys[i];
        int in = 1;
        for (int p = 0; p < probes && in; p++)
            in = bit_test(filter, hash_u32(k, 0x9747b28cu + p) & mask);
        hits[i] = in;
    }
}
