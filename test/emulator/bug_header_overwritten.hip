// Bug: work-item 0 writes 48 bytes before its __shared__ array, into ldsan's
// block header (the kernel-descriptor field), with halt_on_error=0 so the store
// happens after the report; a later bug in the same workgroup is reported with
// the overwritten header. The host reads device-written addresses without
// trusting them: both reports are printed, and the program goes on (the
// host's reader used to fault on the garbage descriptor address while it
// drained, and no report was printed).
// EXPECT: lds-buffer-underflow
// EXPECT-REPORTS: 2
// EXPECT-STDERR: is located 48 bytes before the start of the LDS block of kernel clobber(long*, int) (in ldsan's block header)
// EXPECT-STDERR: ERROR: AddressSanitizer: lds-buffer-overflow
// EXPECT-STDOUT: clobber: the program went on
// EXPECT-ABSENT: SEGV
// EXPECT-EXIT: 0
// ENV: LDSAN_OPTIONS=halt_on_error=0
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void clobber(long *out, int i) {
  __shared__ long tile[64];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) tile[i] = 0x00007f0000001000L;  // BUG: i = -10, the header's descriptor field
  __syncthreads();
  if (threadIdx.x == 1) out[0] = tile[threadIdx.x + 63];  // BUG: tile[64], with the header garbage
}

int main() {
  long *out = nullptr;
  if (hipMalloc(&out, sizeof(long)) != hipSuccess) return 3;
  hipLaunchKernelGGL(clobber, dim3(1), dim3(64), 0, 0, out, -10);
  hipDeviceSynchronize();
  std::printf("clobber: the program went on\n");
  return 0;
}
