#ifndef GLOBALS_HH
#define GLOBALS_HH

class MonteCarlo;
extern MonteCarlo* mcco;

#endif
