// emulator core test kernels: barrier semantics. reverse() is wrong without a real
// barrier (work-item t reads what work-item N-1-t wrote); reduce() is a tree
// reduction with one barrier per level over many workgroups.
#include <hip/hip_runtime.h>

extern "C" __global__ void reverse(const int *in, int *out) {
  __shared__ int tile[256];
  int t = threadIdx.x;
  tile[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = tile[blockDim.x - 1 - t];
}

extern "C" __global__ void reduce(const int *in, int *out) {
  __shared__ int sum[256];
  int t = threadIdx.x;
  sum[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (t < s) sum[t] += sum[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = sum[0];
}

// Work-items below `stop` return before the barrier: the barrier must still
// release the others (live work-items only).
extern "C" __global__ void early_exit(int *out, int stop) {
  __shared__ int v[128];
  int t = threadIdx.x;
  if (t < stop) return;
  v[t] = t;
  __syncthreads();
  out[t] = v[stop + (t - stop + 1) % (128 - stop)];
}

// Every work-item meets at the first three barriers, which one call of the
// group function passes (it goes on from region to region itself,
// LDSAN_EMU_GROUP_CHAIN); then those at or past `stop` return and the others
// meet at one more barrier in a pass that reads their states: its parity must
// count the flips of the chained barriers (the TLS field `chained`).
extern "C" __global__ void chain_then_exit(int *out, int stop) {
  __shared__ int v[128];
  int t = threadIdx.x;
  v[t] = t;
  __syncthreads();
  int a = v[127 - t];
  __syncthreads();
  v[t] = a + 1;
  __syncthreads();
  int b = v[(t + 1) % 128];
  if (t >= stop) return;
  __syncthreads();
  out[t] = b + v[(t + 2) % stop];
}
