/* ldsan host library: reads this process's memory at an address a device or a
 * record supplied, without faulting (process_vm_readv on our own pid): the GPU
 * backend reads host memory (ASan's shadow, report channels) this way, the
 * emulator backend all of its "device" memory. */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/uio.h>
#include <unistd.h>

#include "internal.h"

int ldsan_host_read_self(uint64_t addr, void *dst, size_t n) {
  if (n == 0) return 0;
  struct iovec local = {dst, n}, remote = {(void *)(uintptr_t)addr, n};
  ssize_t got = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
  if (got == (ssize_t)n) return 0;
  if (got >= 0 || errno == EFAULT) return -1; /* (part of) the range is not mapped */
  return -2;                                  /* the system call is not allowed (seccomp) */
}
