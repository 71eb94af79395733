/* ldsan LDS-only mode: the check of a flat access that may reach LDS (the
 * plugin calls it before each flat access in an LDS-only image, where no ASan
 * pass checks them; instrument/LdsOnly.cpp). Only the LDS-only runtime
 * (ldsan-rt-lds.bc) contains this file, as own_shadow.c. An entry point: it
 * drives the checks (report.c), which read the shadow through own_shadow.c. */
#include "entry_points.h"
#include "runtime.h"

/* A flat access that may reach LDS (the plugin calls this before each, in the
 * LDS-only mode, where no ASan pass checks flat accesses): after the LDS
 * lowering an LDS address is its block's, in the store; one in the store or
 * its guards is checked in the shadow like an inline check, anything else
 * (global or private memory) is not ldsan's. */
LDSAN_ENTRY_FN void __ldsan_flat_lds_access(uint64_t addr, uint32_t size_kind) {
  uint64_t base, size;
  __ldsan_pool_store(&base, &size);
  /* The built-in pool has no guards. */
  uint64_t guard = base != (uint64_t)(uintptr_t)__ldsan_builtin_pool ? LDSAN_OWN_SHADOW_GUARD : 0;
  if (addr - (base - guard) >= size + 2 * guard) return;
  uint32_t flags = (size_kind & LDSAN_LDS_CHECK_STORE) ? (uint32_t)LDSAN_ACCESS_WRITE : 0u;
  __ldsan_check_access(addr, size_kind & LDSAN_LDS_CHECK_SIZE_MASK, flags, __ldsan_return_address());
}
