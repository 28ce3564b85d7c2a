#ifndef MC_SOURCE_NOW_HH
#define MC_SOURCE_NOW_HH

class MonteCarlo;

void MC_SourceNow(MonteCarlo *mcco);

#endif

