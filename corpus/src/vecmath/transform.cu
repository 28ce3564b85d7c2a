// Kernels that rotate points with the vecmath library: a chain of joint rotations
// per point, and two-bone skinning with interpolated rotations.
#include "vecmath.h"

// Each point goes through `joints` rotations, composed one at a time.
__global__ void rotate_chain(const float4 *joint_q, const float3 *in, float3 *out, int n,
                             int joints)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 q = make_float4(0.0f, 0.0f, 0.0f, 1.0f);
    float3 p = in[i];
    for (int j = 0; j < joints; j++) {
        q = q_normalize(q_mul(q, joint_q[j]));
        p = v3_add(q_rotate(q, p), make_float3(0.0f, 0.1f * j, 0.0f));
    }
    out[i] = p;
}

__global__ void skin_two_bones(const float4 *bone_q, const float *weight, const float3 *in,
                               float3 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float w = fminf(fmaxf(weight[i], 0.0f), 1.0f);
    float4 q = q_nlerp(q_normalize(bone_q[0]), q_normalize(bone_q[1]), w);
    out[i] = q_rotate(q, in[i]);
}
