#ifndef INIT_MC_HH
#define INIT_MC_HH

class Parameters;
class MonteCarlo;

MonteCarlo* initMC(const Parameters& params);

#endif
