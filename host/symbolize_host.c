/* ldsan host library: symbolizing a return address of this process's own code
 * (the executable or a loaded shared object): the CPU emulator's device pcs,
 * and the host stack a kernel was launched from. dladdr1 gives the object and
 * its load bias; the ELF address of the call (the byte before the return
 * address) goes to ldsan_symbolize_module. Threading: the executable's path is
 * read once under a lock. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <unistd.h>

#include "internal.h"

static pthread_once_t exe_once = PTHREAD_ONCE_INIT;
static char exe_path[4096];

static void read_exe_path(void) {
  ssize_t n = readlink("/proc/self/exe", exe_path, sizeof exe_path - 1);
  exe_path[n > 0 ? n : 0] = 0;
}

int ldsan_symbolize_host_pc(uint64_t pc, ldsan_frame *frames, int max_frames) {
  Dl_info info;
  struct link_map *lm = NULL;
  if (max_frames <= 0 || !dladdr1((void *)(uintptr_t)pc, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm) return 0;
  const char *module = lm->l_name;
  if (!module || !*module) {  /* the executable: its path, not argv[0] */
    pthread_once(&exe_once, read_exe_path);
    if (!exe_path[0]) return 0;
    module = exe_path;
  }
  /* pc - load bias is the ELF address, for PIE and non-PIE alike. */
  uint64_t address = pc - (uint64_t)lm->l_addr;
  int n = ldsan_symbolize_module(module, address - 1, frames, max_frames);
  for (int i = 0; i < n; i++) frames[i].module_offset = address;
  return n;
}
