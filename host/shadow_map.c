/* ldsan host library: the ASan shadow when no host ASan owns it. Device ASan
 * code writes shadow at (addr >> 3) + 0x7FFF8000 — on a GPU through the
 * process's page tables (xnack+, HMM), on the CPU emulator directly. With host
 * ASan in the process that range is ASan's; without it ldsan maps the same
 * ranges itself (anonymous, MAP_NORESERVE: pages exist only once touched). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "internal.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

/* x86-64 ASan shadow ranges (compiler-rt asan_mapping.h, default mapping). */
#define LOW_SHADOW_BEG 0x00007fff8000ull
#define LOW_SHADOW_END 0x00008fff7000ull
#define HIGH_SHADOW_BEG 0x02008fff7000ull
#define HIGH_SHADOW_END 0x10007fff8000ull

extern void __asan_init(void) __attribute__((weak));

int ldsan_host_has_asan(void) { return __asan_init != 0; }

static int map_range(uint64_t beg, uint64_t end) {
  void *p = mmap((void *)(uintptr_t)beg, end - beg, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  if (p == MAP_FAILED || p != (void *)(uintptr_t)beg) {
    fprintf(stderr, "ldsan: error: cannot map the ASan shadow at [0x%llx, 0x%llx): %s; build the host "
            "program with -fsanitize=address (ldsan-cc does) or free that address range\n",
            (unsigned long long)beg, (unsigned long long)end, p == MAP_FAILED ? strerror(errno) : "mapped elsewhere");
    if (p != MAP_FAILED) munmap(p, end - beg);
    return -1;
  }
  return 0;
}

int ldsan_host_map_shadow(void) {
  static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
  static int state; /* 0 not yet, 1 ready, -1 failed */
  pthread_mutex_lock(&mu);
  if (state == 0) {
    if (ldsan_host_has_asan()) state = 1;
    else state = map_range(LOW_SHADOW_BEG, LOW_SHADOW_END) || map_range(HIGH_SHADOW_BEG, HIGH_SHADOW_END) ? -1 : 1;
  }
  pthread_mutex_unlock(&mu);
  return state == 1 ? 0 : -1;
}
