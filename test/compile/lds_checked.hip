#include "mini_hip.inc"
// The LDS checks compiled in (check_lds_checks.sh): LDS loads and stores, an
// LDS atomic, a struct copy, dynamic LDS, barriers, a wave barrier, and an LDS
// pointer passed to a function that is not inlined (flat accesses).
struct rgb { unsigned char r, g, b; };

__attribute__((noinline)) __device__ void bump(int *p, int v) { *p += v; }

__global__ void checked(int *out, int n) {
  __shared__ int tile[64];
  __shared__ rgb px[8];
  __shared__ int count;
  extern __shared__ int dyn[];
  unsigned t = threadIdx.x;
  if (t == 0) count = 0;
  tile[t] = (int)t;
  if (t < 8) px[t] = rgb{(unsigned char)t, 1, 2};
  dyn[t] = n;
  __syncthreads();
  atomicAdd(&count, 1);
  __builtin_amdgcn_wave_barrier();
  bump(&tile[(t + 1) % 64], dyn[(t + 3) % 64]);
  __syncthreads();
  out[t] = tile[(t + n) % 64] + px[t % 8].g + count;
}
