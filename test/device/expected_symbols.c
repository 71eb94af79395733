/* The symbols build/lib/ldsan-rt.bc must define, one per line after
 * `clang -E -P -Iinclude`: the matrix from entry_points.def spelled out here
 * independently of device/entry_points.c, plus every other ABI entry point. */
#include <ldsan/entry_points.def>

#define SIZED(op, N) __asan_report_##op##N __asan_report_##op##N##_noabort __asan_report_exp_##op##N \
  __asan_##op##N __asan_##op##N##_noabort __asan_exp_##op##N
#define SIZED_load(N) SIZED(load, N)
#define SIZED_store(N) SIZED(store, N)
#define OP(op, w) LDSAN_ACCESS_SIZES(SIZED_##op) \
  __asan_report_##op##_n __asan_report_##op##_n_noabort __asan_report_exp_##op##_n \
  __asan_##op##N __asan_##op##N_noabort __asan_exp_##op##N
LDSAN_ACCESS_OPS(OP)

__asan_memcpy __asan_memmove __asan_memset
__asan_region_is_poisoned __asan_poison_region
__asan_poison_memory_region __asan_unpoison_memory_region
__asan_malloc_impl __asan_free_impl
__ldsan_kernel_enter __ldsan_kernel_exit __ldsan_kernel_enter_wave __ldsan_kernel_exit_wave
__asan_register_globals __asan_unregister_globals
__asan_register_elf_globals __asan_unregister_elf_globals
__asan_register_image_globals __asan_unregister_image_globals
__asan_init __asan_version_mismatch_check_v8
__asan_before_dynamic_init __asan_after_dynamic_init __asan_handle_no_return
__ldsan_device_state __ldsan_builtin_channel __ldsan_builtin_pool
