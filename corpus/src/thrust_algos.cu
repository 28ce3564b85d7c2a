// Thrust algorithms (device_vector-free, on raw device pointers with the
// cuda::par policy) over a few key types: sort, sort_by_key, reduce,
// inclusive/exclusive scan, transform_reduce, unique, count_if.
#include <thrust/count.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>
#include <thrust/device_ptr.h>

template <typename T>
struct square_op {
    __host__ __device__ T operator()(T x) const { return x * x; }
};

template <typename T>
struct is_positive {
    __host__ __device__ bool operator()(T x) const { return x > T(0); }
};

template <typename T>
T run(T *d, int *vals, int n)
{
    thrust::device_ptr<T> p(d);
    thrust::device_ptr<int> v(vals);
    thrust::sort(thrust::device, p, p + n);
    thrust::sort_by_key(thrust::device, p, p + n, v, thrust::greater<T>());
    T s = thrust::reduce(thrust::device, p, p + n);
    thrust::inclusive_scan(thrust::device, p, p + n, p);
    thrust::exclusive_scan(thrust::device, p, p + n, p, T(0), thrust::maximum<T>());
    T sq = thrust::transform_reduce(thrust::device, p, p + n, square_op<T>(), T(0), thrust::plus<T>());
    auto e = thrust::unique(thrust::device, p, p + n);
    long c = thrust::count_if(thrust::device, p, e, is_positive<T>());
    return s + sq + T(c);
}

template int run<int>(int *, int *, int);
template float run<float>(float *, int *, int);
template double run<double>(double *, int *, int);
