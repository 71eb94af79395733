// Bug, from four host threads with their own streams: each launches ten
// dispatches in which every work-item of four workgroups writes past a
// __shared__ array, so each dispatch posts 256 records, as many as the
// code object's report channel holds, while others are still writing. With
// halt_on_error=0 every dispatch's first report must come out (issue 36:
// in about one run of 12 a dispatch whose records all found the ring full
// was lost, and another dispatch's drain counted its drops). Each dispatch
// prints one report (the rest folded into it or counted as its own drops).
// Six runs per mode.
// RUN: for i in 1 2 3 4 5 6; do env LDSAN_OPTIONS=halt_on_error=0 %run %{exe} | FileCheck %s --check-prefix=REPORTS || exit 1; done
// RUN: for i in 1 2 3 4 5 6; do env LDSAN_OPTIONS=halt_on_error=0:emu_fibers=1 %run %{exe} | FileCheck %s --check-prefix=REPORTS || exit 1; done
// RUN: for i in 1 2 3 4 5 6; do env LDSAN_OPTIONS=halt_on_error=0 %run %{exe:lds-only} | FileCheck %s --check-prefix=REPORTS || exit 1; done
// RUN: env LDSAN_OPTIONS=halt_on_error=0 %run %{exe} | FileCheck %s
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: lds-buffer-overflow on
// CHECK: {{^}}WRITE of size 4 at{{.*}} in kernel overrun_all
// CHECK: launched by host code here:
// CHECK-NEXT: {{^ *#0 0x[0-9a-f]+ }}in launcher(void*) test/emulator/bug_threads_channel_full.hip:[[@LINE+27]]{{(:[0-9]+)?$}}
// CHECK: ldsan-test: stdout:
// CHECK: bug_threads_channel_full: 40 launches done
// CHECK: ldsan-test: exit 0
// REPORTS-COUNT-40: ERROR: AddressSanitizer: lds-buffer-overflow
// REPORTS-NOT: ERROR: AddressSanitizer:
// REPORTS: bug_threads_channel_full: 40 launches done
#include <pthread.h>
#include "common.h"

__global__ void overrun_all(int *out, unsigned shift) {
  __shared__ int tile[64];
  unsigned t = threadIdx.x;
  tile[t] = (int)(t + shift);
  // BUG: every work-item also writes past the array's end (tile[64..71]).
  tile[64 + t % 8] = (int)t;
  __syncthreads();
  out[blockIdx.x * 64 + t] = tile[63 - t];
}

static void *launcher(void *arg) {
  unsigned thread = (unsigned)(unsigned long)arg;
  int *d;
  hipStream_t s;
  HIP_CHECK(hipStreamCreate(&s));
  HIP_CHECK(hipMalloc(&d, 4 * 64 * sizeof(int)));
  for (unsigned i = 0; i < 10; i++) {
    hipLaunchKernelGGL(overrun_all, dim3(4), dim3(64), 0, s, d, thread + i);
    HIP_CHECK(hipGetLastError());
  }
  HIP_CHECK(hipStreamSynchronize(s));
  HIP_CHECK(hipFree(d));
  HIP_CHECK(hipStreamDestroy(s));
  return NULL;
}

int main() {
  pthread_t t[4];
  for (unsigned long i = 0; i < 4; i++) pthread_create(&t[i], NULL, launcher, (void *)i);
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  printf("bug_threads_channel_full: 40 launches done\n");
  return 0;
}
