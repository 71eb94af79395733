/* ldsan globals and module init: what an ASan module constructor calls on the
 * device. Instrumented globals get ASan's right redzone (0xf9, the host's global
 * redzone magic, so host and device name it alike). The init/ODR/dynamic-init
 * hooks exist because the compiler references them; on the device they have
 * nothing to do (see each). */
#include "entry_points.h"
#include "runtime.h"

#define ASAN_GLOBAL_REDZONE 0xf9u /* kAsanGlobalRedzoneMagic */

/* ASan's __asan_global record, 64 bytes, as the compiler lays it out. */
typedef struct asan_global {
  uint64_t beg;               /* address of the global */
  uint64_t size;              /* bytes the program uses */
  uint64_t size_with_redzone; /* bytes including the right redzone */
  uint64_t name, module_name, has_dynamic_init, location, odr_indicator;
} asan_global;
_Static_assert(sizeof(asan_global) == 64, "asan global record");

LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_register_globals)(uint64_t globals, uint64_t n) {
  const LDSAN_GLOBAL asan_global *g = (const LDSAN_GLOBAL asan_global *)(uintptr_t)globals;
  for (uint64_t i = 0; i < n; ++i)
    __ldsan_poison_lanes(g[i].beg + g[i].size, g[i].size_with_redzone - g[i].size, ASAN_GLOBAL_REDZONE);
}

LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_unregister_globals)(uint64_t globals, uint64_t n) {
  const LDSAN_GLOBAL asan_global *g = (const LDSAN_GLOBAL asan_global *)(uintptr_t)globals;
  for (uint64_t i = 0; i < n; ++i) __ldsan_unpoison_lanes(g[i].beg, g[i].size_with_redzone);
}

/* `flag` (u64) makes registration once per module: the CAS lets one caller in. */
LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_register_elf_globals)(uint64_t flag, uint64_t start, uint64_t stop) {
  if (__ldsan_atomic_cas_u64((LDSAN_GLOBAL uint64_t *)(uintptr_t)flag, 0, 1, LDSAN_SCOPE_DEVICE) != 0) return;
  LDSAN_ENTRY(__asan_register_globals)(start, (stop - start) / sizeof(asan_global));
}

LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_unregister_elf_globals)(uint64_t flag, uint64_t start, uint64_t stop) {
  if (__ldsan_atomic_cas_u64((LDSAN_GLOBAL uint64_t *)(uintptr_t)flag, 1, 0, LDSAN_SCOPE_DEVICE) != 1) return;
  LDSAN_ENTRY(__asan_unregister_globals)(start, (stop - start) / sizeof(asan_global));
}

/* Mach-O style registration (a linker-built list): never emitted for amdgcn ELF. */
LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_register_image_globals)(uint64_t flag) { (void)flag; }
LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_unregister_image_globals)(uint64_t flag) { (void)flag; }

/* The device runtime is initialized statically (state.c): nothing to run. */
LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_init)(void) {}

/* The host loader checks LDSAN_ABI_VERSION in __ldsan_device_state instead. */
LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_version_mismatch_check_v8)(void) {}

/* Init-order checking needs a host-side view of module constructors; the
 * device has no dynamic initialization order to check. */
LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_before_dynamic_init)(uint64_t module_name) { (void)module_name; }
LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_after_dynamic_init)(void) {}

/* Host ASan unpoisons the stack being abandoned; device stacks (scratch) are not
 * instrumented by ldsan, so there is nothing to unpoison. */
LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_handle_no_return)(void) {}
