// The hot loop: every call goes through the Integrator interface.  This file sees
// neither a constructor nor a vtable.
#include "integrator.h"

__device__ float advance(const Integrator *integ, Particle &p, int steps, int *hits)
{
    const int sub = integ->substeps();
    const float dt = integ->timestep() / sub;
    float e = 0.0f;
    int h = 0;
    for (int s = 0; s < steps; s++) {
        for (int k = 0; k < sub; k++)
            integ->step(p, dt);
        h += integ->constrain(p);
        e += integ->energy(p);
    }
    *hits += h;
    return steps > 0 ? e / steps : integ->energy(p);
}
