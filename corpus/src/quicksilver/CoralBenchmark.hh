#ifndef CORALBENCHMARK_HH
#define CORALBENCHMARK_HH

class MonteCarlo;
class Parameters;

void coralBenchmarkCorrectness( MonteCarlo* monteCarlo, Parameters &params );

#endif
