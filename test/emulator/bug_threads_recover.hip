// Bug, from four host threads at once: each launches ten dispatches of a kernel
// in which one work-item of one workgroup (chosen by the launch's argument)
// writes past a __shared__ array. With halt_on_error=0 every dispatch's report
// must come out once, none lost, none merged into another dispatch's: 40.
// (Several dispatches share the code object's report channel while others are
// still writing into it.)
// RUN: env LDSAN_OPTIONS=halt_on_error=0 %run %{exe} > %t && FileCheck %s < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0:emu_fibers=1 %run %{exe} > %t && FileCheck %s < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0 %run %{exe:lds-only} > %t && FileCheck %s < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0:emu_fibers=1 %run %{exe:lds-only} > %t && FileCheck %s < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0 %run %{exe:lds-only+wave32} > %t && FileCheck %s < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0:emu_fibers=1 %run %{exe:lds-only+wave32} > %t && FileCheck %s < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0 %run %{exe:sanitized} > %t && FileCheck %s < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0:emu_fibers=1 %run %{exe:sanitized} > %t && FileCheck %s < %t && FileCheck %s --check-prefix=REPORTS < %t
// RUN: env LDSAN_OPTIONS=halt_on_error=0:report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=halt_on_error=0:report_format=json %run %{exe:lds-only} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=halt_on_error=0:report_format=json %run %{exe:lds-only+wave32} | FileCheck %s --check-prefix=JSON
// RUN: env LDSAN_OPTIONS=halt_on_error=0:report_format=json %run %{exe:sanitized} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: lds-buffer-overflow on
// CHECK: {{^}}WRITE of size 4 at{{.*}} in kernel overrun_one
// CHECK: launched by host code here:
// CHECK-NEXT: {{^ *#0 0x[0-9a-f]+ }}in launcher(void*) test/emulator/bug_threads_recover.hip:[[@LINE+32]]{{(:[0-9]+)?$}}
// CHECK: {{^0x[0-9a-f]+ }}{{[^']*}}'tile'
// CHECK: SUMMARY: AddressSanitizer: lds-buffer-overflow
// CHECK: ldsan-test: stdout:
// CHECK: bug_threads_recover: 40 launches done
// CHECK: ldsan-test: exit 0
// REPORTS-COUNT-40: ERROR: AddressSanitizer:
// REPORTS-NOT: ERROR: AddressSanitizer:
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-buffer-overflow"
// JSON-SAME: "kernel":"overrun_one
// JSON-SAME: "variable":"tile"
// JSON-SAME: "access":"write","size":4,
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
    LAUNCH_CHECK();
  }
  HIP_CHECK(hipFree(d));
  return NULL;
}

int main() {
  pthread_t t[4];
  for (unsigned long i = 0; i < 4; i++) pthread_create(&t[i], NULL, launcher, (void *)i);
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  printf("bug_threads_recover: 40 launches done\n");
  return 0;
}
