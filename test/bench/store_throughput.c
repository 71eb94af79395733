/* make bench: throughput of ldsan's LDS backing store on the CPU. The host
 * build of the device runtime (the same C as the GPU's: block cache ring,
 * pool, shadow fills) is driven by threads acting as workgroups, each taking
 * a block, writing its shadow, poisoning it and giving it back, as a lowered
 * kernel's prologue and epilogue do (one lane: the host has no wave to share
 * the fills). Prints blocks per second and nanoseconds per block for a few
 * thread counts and block sizes. The correctness of the same paths under
 * many threads is test/device/test_block_cache.c's (also under ThreadSanitizer).
 * Usage: store_throughput [seconds per case, default 0.3] */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <time.h>

#include "unit.h"

static uint64_t block_bytes;
static volatile int stop;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct worker {
  uint32_t id;
  uint64_t blocks, refused;
} worker;

static void *workgroup(void *arg) {
  worker *w = arg;
  uint64_t n = 0, failed = 0;
  __ldsan_host_workgroup_id[0] = w->id; /* spreads the threads over the pool as workgroups are */
  while (!stop) {
    for (int i = 0; i < 64; ++i) {
      uint64_t block = unit_kernel_enter(block_bytes, 0);
      if (!block) {
        ++failed;
        continue;
      }
      unit_kernel_exit(block, 0);
      ++n;
    }
  }
  w->blocks = n;
  w->refused = failed;
  return 0;
}

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 0.3;
  if (!(seconds > 0 && seconds < 60)) {
    fprintf(stderr, "usage: %s [seconds per case, 0..60]\n", argv[0]);
    return 2;
  }
  unit_device dev;
  unit_device_init(&dev, UNIT_POOL_BYTES(16));
  const uint64_t sizes[] = {1312, 51232}; /* the reference kernels' blocks (traced_cost.py's "block B") */
  const int threads[] = {1, 2, 4, 8};
  printf("== ldsan LDS backing store throughput on this CPU (test/bench/store_throughput.c: enter + shadow + exit per block, one lane)\n");
  printf("  %-10s %8s %14s %12s\n", "block B", "threads", "blocks/s", "ns/block");
  int bad = 0;
  for (size_t z = 0; z < sizeof sizes / sizeof *sizes; ++z)
    for (size_t t = 0; t < sizeof threads / sizeof *threads; ++t) {
      block_bytes = sizes[z];
      stop = 0;
      pthread_t tid[8];
      worker w[8] = {{0}};
      double start = now();
      for (int i = 0; i < threads[t]; ++i) {
        w[i].id = (uint32_t)i;
        pthread_create(&tid[i], 0, workgroup, &w[i]);
      }
      while (now() - start < seconds) {
        struct timespec d = {0, 10 * 1000 * 1000};
        nanosleep(&d, 0);
      }
      stop = 1;
      uint64_t total = 0, failed = 0;
      for (int i = 0; i < threads[t]; ++i) {
        pthread_join(tid[i], 0);
        total += w[i].blocks;
        failed += w[i].refused;
      }
      double elapsed = now() - start;
      printf("  %-10llu %8d %14.0f %12.1f%s\n", (unsigned long long)block_bytes, threads[t], total / elapsed,
             total ? elapsed * 1e9 * threads[t] / total : 0.0, failed ? "  (some blocks refused)" : "");
      bad |= failed != 0 || dev.channel->next != 0;
    }
  unit_device_fini(&dev);
  if (bad) fprintf(stderr, "store_throughput: a block was refused or reported\n");
  return bad;
}
