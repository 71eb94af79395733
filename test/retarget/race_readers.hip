// Readers the LDS checks must keep: each kernel reads one shared word from
// several lanes in one barrier interval and then writes it from a lane that
// read it or is in a reader's wave, so the race is found only if the right
// reader is still kept. The template parameter fixes it (a __syncthreads()
// before the write): then nothing is reported. race_readers.sh runs them.
//   stale:   lanes 0 and 1 read, a wave barrier, lane 2 reads, lane 0 writes:
//            the race is with lane 2's read (both after the wave barrier);
//            the reads of lanes 0 and 1 before it are ordered;
//   reread:  lane 0 reads, a wave barrier, lane 0 reads again, lane 1 writes:
//            the race is with lane 0's second read;
//   between: lanes 0 and 64 read, lane 1 writes: lane 1's write races with
//            lane 0's read within its wave and with lane 64's between waves,
//            which is the error. The order (both reads first) is the work-
//            item loops': the shuffle makes the kernel lockstep, and every
//            lane runs up to it before any runs on (as fibers, wave 0 would
//            finish first: race_readers.sh does not run them so).
//   atomics: lane 1 reads atomically, lane 2 plainly, lane 64 atomically,
//            then lane 65 adds atomically: two atomics do not race, so the
//            add races with lane 2's plain read only (between waves: the
//            error), which the atomic readers kept around it must not hide;
//   plain:   lanes 1 and 64 read atomically, then lane 65 writes plainly: it
//            races with both, the error with lane 1's (another wave), which
//            the inline path must leave to the core (no plain reader kept).
#include "common.h"

template <bool fixed>
__global__ void stale(const int *in, int *out) {
  __shared__ int s;
  int t = threadIdx.x;
  if (t == 0) s = in[0];
  __syncthreads();
  int v = t < 2 ? s : 0;  // early-read
  __builtin_amdgcn_wave_barrier();
  if (t == 2) v = s;  // late-read
  if (fixed) __syncthreads();
  if (t == 0) s = v + 1;  // stale-write
  out[t] = v;
}

template <bool fixed>
__global__ void reread(const int *in, int *out) {
  __shared__ int s;
  int t = threadIdx.x;
  if (t == 0) s = in[0];
  __syncthreads();
  int v = t == 0 ? s : 0;
  __builtin_amdgcn_wave_barrier();
  if (t == 0) v += s;  // reread
  if (fixed) __syncthreads();
  if (t == 1) s = 7;  // reread-write
  out[t] = v;
}

template <bool fixed>
__global__ void between(const int *in, int *out) {
  __shared__ int s;
  int t = threadIdx.x;
  if (t == 0) s = in[0];
  __syncthreads();
  int v = t == 0 || t == 64 ? s : 0;  // two-waves-read
  v += __shfl_xor(v, 2);
  if (fixed) __syncthreads();
  if (t == 1) s = 9;  // between-write
  out[t] = v;
}

template <bool fixed>
__global__ void atomics(const int *in, int *out) {
  __shared__ int s;
  int t = threadIdx.x;
  if (t == 0) s = in[0];
  __syncthreads();
  int v = 0;
  if (t == 1 || t == 64) v = __hip_atomic_load(&s, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);  // atomic-read
  if (t == 2) v = s;  // plain-read
  if (fixed) __syncthreads();
  if (t == 65) atomicAdd(&s, 1);  // atomic-add
  out[t] = v;
}

template <bool fixed>
__global__ void plain(const int *in, int *out) {
  __shared__ int s;
  int t = threadIdx.x;
  if (t == 0) s = in[0];
  __syncthreads();
  int v = 0;
  if (t == 1 || t == 64) v = __hip_atomic_load(&s, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);  // atomic-reads
  if (fixed) __syncthreads();
  if (t == 65) s = 5;  // plain-write
  out[t] = v;
}

int main(int argc, char **argv) {
  bool fixed = argc > 1 && !strcmp(argv[1], "fixed");
  static int in[1] = {40}, out[128];
  int *din, *dout;
  HIP_CHECK(hipMalloc(&din, sizeof in));
  HIP_CHECK(hipMalloc(&dout, sizeof out));
  HIP_CHECK(hipMemcpy(din, in, sizeof in, hipMemcpyHostToDevice));
  int want[128];

  if (fixed) stale<true><<<1, 64>>>(din, dout);
  else stale<false><<<1, 64>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, 64 * sizeof(int), hipMemcpyDeviceToHost));
  for (int t = 0; t < 64; t++) want[t] = t < 3 ? 40 : 0;
  check_equal("stale", out, want, 64);

  if (fixed) reread<true><<<1, 64>>>(din, dout);
  else reread<false><<<1, 64>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, 64 * sizeof(int), hipMemcpyDeviceToHost));
  for (int t = 0; t < 64; t++) want[t] = t == 0 ? 80 : 0;
  check_equal("reread", out, want, 64);

  if (fixed) between<true><<<1, 128>>>(din, dout);
  else between<false><<<1, 128>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, 128 * sizeof(int), hipMemcpyDeviceToHost));
  for (int t = 0; t < 128; t++) want[t] = t == 0 || t == 2 || t == 64 || t == 66 ? 40 : 0;
  check_equal("between", out, want, 128);

  if (fixed) atomics<true><<<1, 128>>>(din, dout);
  else atomics<false><<<1, 128>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, 128 * sizeof(int), hipMemcpyDeviceToHost));
  for (int t = 0; t < 128; t++) want[t] = t == 1 || t == 2 || t == 64 ? 40 : 0;
  check_equal("atomics", out, want, 128);

  if (fixed) plain<true><<<1, 128>>>(din, dout);
  else plain<false><<<1, 128>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out, dout, 128 * sizeof(int), hipMemcpyDeviceToHost));
  for (int t = 0; t < 128; t++) want[t] = t == 1 || t == 64 ? 40 : 0;
  check_equal("plain", out, want, 128);

  printf("race_readers: done\n");
  return 0;
}
