// Bug, from four host threads at once: each launches ten dispatches of a kernel
// in which one work-item of one workgroup (chosen by the launch's argument)
// writes past a __shared__ array. With halt_on_error=0 every dispatch's report
// must come out once, none lost, none merged into another dispatch's: 40.
// (Several dispatches share the code object's report channel while others are
// still writing into it.)
// EXPECT: lds-buffer-overflow
// EXPECT-ACCESS: WRITE of size 4
// EXPECT-KERNEL: overrun_one
// EXPECT-VAR: tile
// EXPECT-REPORTS: 40
// EXPECT-EXIT: 0
// EXPECT-STDOUT: bug_threads_recover: 40 launches done
// EXPECT-LAUNCH: in launcher(void*) test/emulator/bug_threads_recover.hip:34
// ENV: LDSAN_OPTIONS=halt_on_error=0
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
