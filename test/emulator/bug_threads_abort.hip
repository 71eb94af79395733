// Bug, from four host threads at once, default options: every dispatch has a
// fatal report, but like ASan's Die() the first report wins: exactly one report
// and one ABORTING line, the exit status is exitcode, and no other thread prints
// or goes on after it.
// EXPECT: lds-buffer-overflow
// EXPECT-KERNEL: overrun_one
// EXPECT-VAR: tile
// EXPECT-REPORTS: 1
// EXPECT-EXIT: 1
// EXPECT-ABSENT: went on after a fatal report
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
