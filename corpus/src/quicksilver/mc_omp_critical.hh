#if defined(HAVE_OPENMP)
#pragma omp critical
#endif
