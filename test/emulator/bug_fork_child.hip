// Bug, in a forked child: the parent launches a kernel (so the emulator's
// worker threads run, in the parent only), forks; the child launches a clean
// kernel, then one in which a work-item writes past a __shared__ array, and is
// stopped by that report (exit status 1); the parent waits for it and launches
// again. The child's launches must not wait for the parent's workers (before
// the worker pool started afresh in a forked child, the child's first launch
// waited for them forever: its alarm ends it, and the parent says so).
// RUN: env LDSAN_OPTIONS=emu_threads=2 %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_threads=2:emu_fibers=1 %run %{exe} | FileCheck %s
// RUN: %run %{exe} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_threads=2 %run %{exe:lds-only} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_threads=2:emu_fibers=1 %run %{exe:lds-only} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_threads=2 %run %{exe:sanitized} | FileCheck %s
// RUN: env LDSAN_OPTIONS=emu_threads=2:report_format=json %run %{exe} | FileCheck %s --check-prefix=JSON
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ERROR: AddressSanitizer: lds-buffer-overflow on
// CHECK: {{^}}WRITE of size 4 at{{.*}} thread (work-item) (63,0,0){{.*}} of workgroup (5,0,0){{.*}} in kernel overrun
// CHECK: {{^    #0 0x[0-9a-f]+ }}in overrun(int*) test/emulator/bug_fork_child.hip:[[@LINE+38]]{{(:[0-9]+)?$}}
// CHECK: launched by host code here:
// CHECK-NEXT: {{^ *#0 0x[0-9a-f]+ }}in child() test/emulator/bug_fork_child.hip:[[@LINE+61]]{{(:[0-9]+)?$}}
// CHECK: SUMMARY: AddressSanitizer: lds-buffer-overflow
// CHECK-NOT: ERROR: AddressSanitizer
// CHECK: ldsan-test: stdout:
// CHECK-NEXT: parent: launch before fork ok
// CHECK-NEXT: child: clean launch ok
// CHECK-NEXT: parent: child exited with status 1
// CHECK-NEXT: parent: launch after the child ok
// CHECK-NEXT: ldsan-test: exit 0
// JSON-NOT: {"ldsan_report"
// JSON: {"ldsan_report":1,
// JSON-SAME: "type":"lds-buffer-overflow"
// JSON-SAME: "kernel":"overrun
// JSON-SAME: "workgroup":[5,0,0]
// JSON-NOT: {"ldsan_report"
// JSON: parent: child exited with status 1
// JSON: ldsan-test: exit 0
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "common.h"

#define GROUPS 8

__global__ void reverse(int *out) {
  __shared__ int tile[64];
  unsigned t = threadIdx.x;
  tile[t] = (int)(blockIdx.x * 64 + t);
  __syncthreads();
  out[blockIdx.x * 64 + t] = tile[63 - t];
}

__global__ void overrun(int *out) {
  __shared__ int tile[64];
  unsigned t = threadIdx.x;
  // BUG: work-item 63 of workgroup 5 writes tile[64].
  tile[t + (blockIdx.x == 5 && t == 63 ? 1 : 0)] = (int)t;
  __syncthreads();
  out[blockIdx.x * 64 + t] = tile[63 - t];
}

// Launches reverse on every workgroup (several: the pool's workers take part)
// and checks what it wrote.
static void run_reverse(int *d, const char *who) {
  static int got[GROUPS * 64], want[GROUPS * 64];
  HIP_CHECK(hipMemset(d, 0, sizeof got));
  reverse<<<GROUPS, 64>>>(d);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(got, d, sizeof got, hipMemcpyDeviceToHost));
  for (int g = 0; g < GROUPS; g++)
    for (int t = 0; t < 64; t++) want[g * 64 + t] = g * 64 + 63 - t;
  check_equal(who, got, want, GROUPS * 64);
}

static int *d;

static void child() {
  alarm(60);  // a launch that waits for workers that do not exist ends here
  run_reverse(d, "child: reverse");
  printf("child: clean launch ok\n");
  fflush(stdout);
  overrun<<<GROUPS, 64>>>(d);  // its report stops the child (halt_on_error)
  hipDeviceSynchronize();
  printf("child: not stopped by the report\n");
  exit(2);
}

int main() {
  HIP_CHECK(hipMalloc(&d, GROUPS * 64 * sizeof(int)));
  run_reverse(d, "parent: reverse before fork");
  printf("parent: launch before fork ok\n");
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) {
    perror("fork");
    return 5;
  }
  if (pid == 0) child();
  int status;
  if (waitpid(pid, &status, 0) != pid) {
    perror("waitpid");
    return 5;
  }
  if (WIFEXITED(status)) printf("parent: child exited with status %d\n", WEXITSTATUS(status));
  else printf("parent: child killed by signal %d\n", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  run_reverse(d, "parent: reverse after the child");
  printf("parent: launch after the child ok\n");
  HIP_CHECK(hipFree(d));
  return 0;
}
