/* ldsan device state: the per-code-object globals. The host finds
 * __ldsan_device_state by name and may rewrite it between dispatches (channel,
 * pool, flags); the built-in channel is used while it leaves that 0, the
 * built-in pool while it leaves the pool the initializer names (so the
 * device reads the pool it uses with no choice to make on each block).
 * The LDS-only runtime (LDSAN_OWN_SHADOW) says so in its initial flags.
 * On the host build the same globals are what unit tests set. */
#include "runtime.h"

/* `used` keeps the state in every linked code object, so the host can always
 * find it and check abi_version. */
#ifdef LDSAN_OWN_SHADOW
#define LDSAN_STATE_INITIAL_FLAGS (LDSAN_STATE_HALT_ON_ERROR | LDSAN_STATE_OWN_SHADOW)
#else
#define LDSAN_STATE_INITIAL_FLAGS LDSAN_STATE_HALT_ON_ERROR
#endif
/* Zero-initialized as the pool requires (all regions free). Page-aligned:
 * the shadow of its blocks (256-aligned) then starts a 16-byte unit in the
 * LDS-only runtime's own shadow of it too (own_shadow.c), as exit_block's
 * whole shadow units need. */
LDSAN_EXPORT __attribute__((aligned(4096))) LDSAN_GLOBAL uint8_t __ldsan_builtin_pool[LDSAN_BUILTIN_POOL_SIZE];

__attribute__((used)) LDSAN_EXPORT volatile LDSAN_GLOBAL ldsan_device_state __ldsan_device_state = {
    LDSAN_ABI_VERSION, LDSAN_STATE_INITIAL_FLAGS, 0, (uint64_t)(uintptr_t)__ldsan_builtin_pool, LDSAN_BUILTIN_POOL_SIZE,
    0};

LDSAN_EXPORT LDSAN_GLOBAL ldsan_report_channel __ldsan_builtin_channel = {
    LDSAN_ABI_VERSION, LDSAN_CHANNEL_CAPACITY, 0, 0, 0, 0, {{0}}, {0}, {0}, {{0}}};
