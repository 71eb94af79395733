// Bug, from four host threads at once, default options: every dispatch has a
// fatal report, but like ASan's Die() the first report wins: exactly one report
// and one ABORTING line, the exit status is exitcode, and no other thread prints
// or goes on after it.
// RUN: %run %{exe} > %t && FileCheck %s --implicit-check-not='went on after a fatal report' < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} > %t && FileCheck %s --implicit-check-not='went on after a fatal report' < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: %run %{exe:lds-only} > %t && FileCheck %s --implicit-check-not='went on after a fatal report' < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only} > %t && FileCheck %s --implicit-check-not='went on after a fatal report' < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: %run %{exe:lds-only+wave32} > %t && FileCheck %s --implicit-check-not='went on after a fatal report' < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} > %t && FileCheck %s --implicit-check-not='went on after a fatal report' < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe:lds-only} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=report_format=json %run %{exe:lds-only+wave32} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: lds-buffer-overflow on
// CHECK:  in kernel overrun_one
// CHECK: {{^0x[0-9a-f]+ }}{{[^']*}}'tile'
// CHECK: SUMMARY: AddressSanitizer: lds-buffer-overflow
// CHECK: ldsan-test: exit 1
// REPORTS-COUNT-1: ERROR: AddressSanitizer:
// REPORTS-NOT: ERROR: AddressSanitizer:
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-buffer-overflow"
// JSON-SAME: "kernel":"overrun_one
// JSON-SAME: "variable":"tile"
// LeakSanitizer stays on: a launching thread's emulator state goes when the thread does.
#include <pthread.h>
#include "common.h"

__global__ void overrun_one(int *out, unsigned bad_group) {
  __shared__ int tile[64];
  unsigned t = threadIdx.x;
  // BUG: work-item 63 of workgroup bad_group writes tile[64].
  tile[t + (blockIdx.x == bad_group && t == 63 ? 1 : 0)] = (int)t;
  __syncthreads();
  out[blockIdx.x * 64 + t] = tile[63 - t];
}

static void *launcher(void *arg) {
  unsigned thread = (unsigned)(unsigned long)arg;
  int *d;
  HIP_CHECK(hipMalloc(&d, 16 * 64 * sizeof(int)));
  for (unsigned i = 0; i < 10; i++) {
    overrun_one<<<16, 64>>>(d, (thread * 10 + i) % 16);
    hipDeviceSynchronize();
    printf("bug_threads_abort: thread %u went on after a fatal report\n", thread);
  }
  return NULL;
}

int main() {
  pthread_t t[4];
  for (unsigned long i = 0; i < 4; i++) pthread_create(&t[i], NULL, launcher, (void *)i);
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  printf("bug_threads_abort: no error detected\n");
  return 0;
}
