// Shared declarations for the monomorphic-interface program (compiled with -rdc=true).
//
// Integrator is an abstract interface with exactly one implementation in the whole
// program, Leapfrog.  Leapfrog's virtual functions are defined out of line in
// leapfrog.cu; its objects are built on the device in sim.cu (a local object, and one
// object per block from new_integrator()).  The hot loop in driver.cu only ever sees
// an `const Integrator *`, so nvcc (which does not optimize across -rdc translation
// units) keeps every call in it indirect -- although only one target exists.
#pragma once

struct Particle {
    float x, y, vx, vy;
};

class Integrator {
  public:
    __device__ virtual ~Integrator() {}
    __device__ virtual int substeps() const = 0;
    __device__ virtual float timestep() const = 0;
    __device__ virtual void step(Particle &p, float dt) const = 0;
    __device__ virtual int constrain(Particle &p) const = 0;  // returns the number of wall hits
    __device__ virtual float energy(const Particle &p) const = 0;
};

// Damped harmonic oscillator in a box, integrated with velocity Verlet.
class Leapfrog : public Integrator {
  public:
    __device__ Leapfrog(float k, float damping, float box, float dt, int substeps)
        : k_(k), damping_(damping), box_(box), dt_(dt), substeps_(substeps) {}
    __device__ int substeps() const override;
    __device__ float timestep() const override;
    __device__ void step(Particle &p, float dt) const override;
    __device__ int constrain(Particle &p) const override;
    __device__ float energy(const Particle &p) const override;

  private:
    float k_, damping_, box_, dt_;
    int substeps_;
};

// leapfrog.cu
__device__ Integrator *new_integrator(float k, float damping, float box, float dt, int substeps);

// driver.cu: advances one particle by `steps` outer steps, returns its mean energy and
// adds the wall hits to *hits.
__device__ float advance(const Integrator *integ, Particle &p, int steps, int *hits);
