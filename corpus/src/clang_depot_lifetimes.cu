// depot_lifetimes.cu through clang: LLVM's stack colouring is the figure
// depot repacking aims at on nvcc's output of the same source.
#include "clang_cuda_min.h"
#include "depot_lifetimes.cu"
