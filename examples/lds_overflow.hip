// A block-wide sum with an LDS bug: the workgroup has 257 work-items but the
// LDS buffer holds 256 floats, so work-item 256 writes one past its end.
// Run it on the CPU emulator:  build/bin/ldsan-cc --emulate -O2 -g examples/lds_overflow.hip -o lds_overflow
#include <hip/hip_runtime.h>
#include <stdio.h>

#define N 256
#define CHECK(call) do { if ((call) != hipSuccess) { fprintf(stderr, "%s failed\n", #call); return 1; } } while (0)

__global__ void block_sum(const float *in, float *out) {
  __shared__ float partial[N];
  int t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];  // BUG: t == 256 is out of bounds
  __syncthreads();
  if (t == 0) {
    float s = 0;
    for (int i = 0; i < N; i++) s += partial[i];
    out[blockIdx.x] = s;
  }
}

int main() {
  const int blocks = 4, threads = N + 1;  // the off-by-one
  float *in, *out;
  CHECK(hipMalloc(&in, blocks * threads * sizeof(float)));
  CHECK(hipMalloc(&out, blocks * sizeof(float)));
  CHECK(hipMemset(in, 0, blocks * threads * sizeof(float)));
  block_sum<<<blocks, threads>>>(in, out);
  hipError_t err = hipDeviceSynchronize();
  printf("block_sum finished: %s\n", hipGetErrorString(err));
  return 0;
}
