// Device trap: __builtin_trap() in a kernel ends the program, as the HIP
// runtime ends it on a GPU (CLR aborts the process on the queue error a trap
// raises): the trap's report, a line saying the process ends, every LDS report
// recorded before it, then exit status exitcode; the program never goes on
// past the launch. LDSAN_OPTIONS=abort_on_trap=0: the launch fails with
// hipErrorLaunchFailure (sticky) and the program decides what to do.
// RUN: %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s
// RUN: %run %{exe:lds-only} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only} | FileCheck %s
// RUN: env LDSAN_OPTIONS=exitcode=7 %run %{exe} | FileCheck %s --check-prefix=EXITCODE
// RUN: env LDSAN_OPTIONS=halt_on_error=0 %run %{exe} overflow | FileCheck %s --check-prefix=REPORT
// RUN: env LDSAN_OPTIONS=halt_on_error=0:emu_fibers=1 %run %{exe} overflow | FileCheck %s --check-prefix=REPORT
// RUN: env LDSAN_OPTIONS=abort_on_trap=0 %run %{exe} | FileCheck %s --check-prefix=GOON
// RUN: env LDSAN_OPTIONS=abort_on_trap=0:emu_fibers=1 %run %{exe} | FileCheck %s --check-prefix=GOON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: {{^}}ldsan-emu: error: kernel 'trap_one(int*, int)' <<<(4,1,1), (64,1,1), 0>>> failed: ldsan-emu: device trap in kernel _Z8trap_onePii at workgroup (2,0,0) work-item (5,0,0){{$}}
// CHECK-NEXT: {{^}}ldsan-emu: a device trap ends the process, as the HIP runtime ends it on a GPU; LDSAN_OPTIONS=abort_on_trap=0 makes the launch return hipErrorLaunchFailure instead{{$}}
// CHECK-NEXT: ldsan-test: stdout:
// CHECK-NEXT: device_trap: launching
// CHECK-NEXT: ldsan-test: exit 1
// EXITCODE: ldsan-emu: a device trap ends the process
// EXITCODE: ldsan-test: stdout:
// EXITCODE-NEXT: device_trap: launching
// EXITCODE-NEXT: ldsan-test: exit 7
// REPORT: ERROR: AddressSanitizer: lds-buffer-overflow on
// REPORT: {{^}}WRITE of size 4 at{{.*}} thread (work-item) (63,0,0){{.*}} of workgroup (1,0,0){{.*}} in kernel trap_one
// REPORT: SUMMARY: AddressSanitizer: lds-buffer-overflow
// REPORT-NEXT: {{^}}ldsan-emu: error: kernel 'trap_one(int*, int)' {{.*}} failed: ldsan-emu: device trap in kernel _Z8trap_onePii at workgroup (2,0,0) work-item (5,0,0) after an ldsan report{{$}}
// REPORT-NEXT: ldsan-emu: a device trap ends the process
// REPORT-NEXT: ldsan-test: stdout:
// REPORT-NEXT: device_trap: launching
// REPORT-NEXT: ldsan-test: exit 1
// GOON-NOT: ERROR: AddressSanitizer
// GOON: ldsan-emu: error: kernel 'trap_one(int*, int)' {{.*}} failed: ldsan-emu: device trap in kernel _Z8trap_onePii at workgroup (2,0,0) work-item (5,0,0){{$}}
// GOON-NEXT: ldsan-test: stdout:
// GOON-NEXT: device_trap: launching
// GOON-NEXT: device_trap: went on past the trap: the launch returned hipErrorLaunchFailure, hipDeviceSynchronize hipErrorLaunchFailure
// GOON-NEXT: ldsan-test: exit 0
#include <string.h>
#include "common.h"

__global__ void trap_one(int *out, int overflow) {
  __shared__ int tile[64];
  unsigned t = threadIdx.x;
  // overflow: work-item 63 of workgroup 1 writes tile[64] (a report that does not stop the program under halt_on_error=0).
  tile[t + (overflow && blockIdx.x == 1 && t == 63 ? 1 : 0)] = (int)t;
  __syncthreads();
  if (blockIdx.x == 2 && t == 5) __builtin_trap();
  out[blockIdx.x * 64 + t] = tile[63 - t];
}

int main(int argc, char **argv) {
  int overflow = argc > 1 && !strcmp(argv[1], "overflow");
  int *d;
  HIP_CHECK(hipMalloc(&d, 4 * 64 * sizeof(int)));
  printf("device_trap: launching\n");
  trap_one<<<4, 64>>>(d, overflow);
  hipError_t launch = hipGetLastError();
  hipError_t sync = hipDeviceSynchronize();
  printf("device_trap: went on past the trap: the launch returned %s, hipDeviceSynchronize %s\n",
         hipGetErrorName(launch), hipGetErrorName(sync));
  return 0;
}
