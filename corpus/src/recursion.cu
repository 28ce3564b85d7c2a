// Recursive device functions: fibonacci, recursive tree walk, quicksort,
// mutual recursion; uses the call stack (local memory frames).
struct tree_node {
    int key;
    int left, right;  // indices, -1 = none
};

__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ int tree_sum(const tree_node *t, int idx, int depth)
{
    if (idx < 0 || depth > 64)
        return 0;
    return t[idx].key + tree_sum(t, t[idx].left, depth + 1) + tree_sum(t, t[idx].right, depth + 1);
}

__device__ void quicksort(int *a, int lo, int hi)
{
    if (lo >= hi)
        return;
    int p = a[(lo + hi) / 2], i = lo, j = hi;
    while (i <= j) {
        while (a[i] < p)
            i++;
        while (a[j] > p)
            j--;
        if (i <= j) {
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
            i++;
            j--;
        }
    }
    quicksort(a, lo, j);
    quicksort(a, i, hi);
}

__device__ bool is_odd(unsigned n);
__device__ bool is_even(unsigned n) { return n == 0 ? true : is_odd(n - 1); }
__device__ bool is_odd(unsigned n) { return n == 0 ? false : is_even(n - 1); }

__device__ double ackermann_ish(int m, double n)
{
    if (m == 0)
        return n + 1;
    if (n <= 0)
        return ackermann_ish(m - 1, 1);
    return ackermann_ish(m - 1, ackermann_ish(m, n - 1));
}

__global__ void recursion_kernel(int *out, const tree_node *tree, int *arrays, int len)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[4 * t + 0] = fib(t % 20);
    out[4 * t + 1] = tree_sum(tree, 0, 0);
    quicksort(arrays + t * len, 0, len - 1);
    out[4 * t + 2] = is_even(t) ? 1 : 0;
    out[4 * t + 3] = (int)ackermann_ish(2, t % 5);
}
