// The only implementation of Integrator: its virtual functions, out of line.
#include "integrator.h"

__device__ int Leapfrog::substeps() const { return substeps_; }

__device__ float Leapfrog::timestep() const { return dt_; }

__device__ void Leapfrog::step(Particle &p, float dt) const
{
    float ax = -k_ * p.x - damping_ * p.vx;
    float ay = -k_ * p.y - damping_ * p.vy;
    p.vx += 0.5f * dt * ax;
    p.vy += 0.5f * dt * ay;
    p.x += dt * p.vx;
    p.y += dt * p.vy;
    ax = -k_ * p.x - damping_ * p.vx;
    ay = -k_ * p.y - damping_ * p.vy;
    p.vx += 0.5f * dt * ax;
    p.vy += 0.5f * dt * ay;
}

__device__ int Leapfrog::constrain(Particle &p) const
{
    int hits = 0;
    if (p.x > box_) {
        p.x = 2.0f * box_ - p.x;
        p.vx = -p.vx;
        hits++;
    } else if (p.x < -box_) {
        p.x = -2.0f * box_ - p.x;
        p.vx = -p.vx;
        hits++;
    }
    if (p.y > box_) {
        p.y = 2.0f * box_ - p.y;
        p.vy = -p.vy;
        hits++;
    } else if (p.y < -box_) {
        p.y = -2.0f * box_ - p.y;
        p.vy = -p.vy;
        hits++;
    }
    return hits;
}

__device__ float Leapfrog::energy(const Particle &p) const
{
    return 0.5f * (p.vx * p.vx + p.vy * p.vy) + 0.5f * k_ * (p.x * p.x + p.y * p.y);
}

__device__ Integrator *new_integrator(float k, float damping, float box, float dt, int substeps)
{
    return new Leapfrog(k, damping, box, dt, substeps);
}
