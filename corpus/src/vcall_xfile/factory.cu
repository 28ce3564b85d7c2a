// Device-side factories: objects are created here, classes live in lights.cu.
#include "lights.h"

__device__ Light *make_light(int kind, const V3 &pos, float intensity)
{
    V3 color(intensity, 0.9f * intensity, 0.8f * intensity);
    switch (kind) {
    case LIGHT_POINT:
        return new PointLight(pos, color);
    case LIGHT_SPOT:
        return new SpotLight(pos, color, V3(0.0f, -1.0f, 0.0f), 0.7f);
    case LIGHT_QUAD:
        return new QuadLight(pos, color, V3(0.5f, 0.0f, 0.0f), V3(0.0f, 0.0f, 0.5f));
    default:
        return nullptr;
    }
}

// Fills lights[0..n) with a pseudo-random mix; returns how many were made.
__device__ int make_scene(Light **lights, int n, unsigned seed)
{
    unsigned s = seed * 747796405u + 2891336453u;
    int made = 0;
    for (int i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        V3 pos(((s >> 8) & 255) * (4.0f / 255.0f) - 2.0f, 2.0f + (s & 3),
               ((s >> 16) & 255) * (4.0f / 255.0f) - 2.0f);
        Light *l = make_light((s >> 24) % LIGHT_KINDS, pos, 1.0f + (i & 3));
        if (l != nullptr)
            lights[made++] = l;
    }
    return made;
}
