// An object compiled to a cubin only (code=sm_80) in tests/dlink/dlink.sh:
// ptxlink -dlink has no PTX to link and runs nvlink as nvcc -dlink does.
__global__ void sass_only(int *p) { p[0] = 42; }
void launch_sass(int *p) { sass_only<<<1, 1>>>(p); }
