/* ldsan compiler ABI: declarations of every entry point the device runtime
 * defines, the __asan_* access matrix generated from entry_points.def. Names
 * go through LDSAN_ENTRY (target.h): the real names on amdgcn, ldsan_test__asan_*
 * in the host unit tests. Addresses and sizes are i64 as the compiler passes them. */
#ifndef LDSAN_DEVICE_ENTRY_POINTS_H
#define LDSAN_DEVICE_ENTRY_POINTS_H

#include <stddef.h>
#include <stdint.h>

#include <ldsan/entry_points.def>

#include "target.h"

/* Sized (1, 2, 4, 8, 16 bytes): reports called by the inline checks, and the
 * checking callbacks of -asan-instrumentation-with-call-threshold. */
#define LDSAN_DECLARE_SIZED(op, BYTES)                                            \
  void LDSAN_ENTRY(__asan_report_##op##BYTES)(uint64_t addr);                     \
  void LDSAN_ENTRY(__asan_report_##op##BYTES##_noabort)(uint64_t addr);           \
  void LDSAN_ENTRY(__asan_report_exp_##op##BYTES)(uint64_t addr, int32_t exp);    \
  void LDSAN_ENTRY(__asan_##op##BYTES)(uint64_t addr);                            \
  void LDSAN_ENTRY(__asan_##op##BYTES##_noabort)(uint64_t addr);                  \
  void LDSAN_ENTRY(__asan_exp_##op##BYTES)(uint64_t addr, int32_t exp);
/* Ranges (size in a register). */
#define LDSAN_DECLARE_RANGE(op)                                                          \
  void LDSAN_ENTRY(__asan_report_##op##_n)(uint64_t addr, uint64_t size);                \
  void LDSAN_ENTRY(__asan_report_##op##_n_noabort)(uint64_t addr, uint64_t size);        \
  void LDSAN_ENTRY(__asan_report_exp_##op##_n)(uint64_t addr, uint64_t size, int32_t exp); \
  void LDSAN_ENTRY(__asan_##op##N)(uint64_t addr, uint64_t size);                        \
  void LDSAN_ENTRY(__asan_##op##N_noabort)(uint64_t addr, uint64_t size);                \
  void LDSAN_ENTRY(__asan_exp_##op##N)(uint64_t addr, uint64_t size, int32_t exp);

#define LDSAN_DECLARE_load(BYTES) LDSAN_DECLARE_SIZED(load, BYTES)
#define LDSAN_DECLARE_store(BYTES) LDSAN_DECLARE_SIZED(store, BYTES)
#define LDSAN_DECLARE_OP(op, is_write) LDSAN_ACCESS_SIZES(LDSAN_DECLARE_##op) LDSAN_DECLARE_RANGE(op)
LDSAN_ACCESS_OPS(LDSAN_DECLARE_OP)
#undef LDSAN_DECLARE_OP
#undef LDSAN_DECLARE_load
#undef LDSAN_DECLARE_store
#undef LDSAN_DECLARE_RANGE
#undef LDSAN_DECLARE_SIZED

/* memintrinsics.c: checked copies and fills (pointers are flat). */
void *LDSAN_ENTRY(__asan_memcpy)(void *dst, const void *src, size_t n);
void *LDSAN_ENTRY(__asan_memmove)(void *dst, const void *src, size_t n);
void *LDSAN_ENTRY(__asan_memset)(void *dst, int c, size_t n);

/* entry_points.c: shadow queries and the public poisoning API. */
uint64_t LDSAN_ENTRY(__asan_region_is_poisoned)(uint64_t beg, uint64_t size);
void LDSAN_ENTRY(__asan_poison_region)(uint64_t addr, uint64_t size);
void LDSAN_ENTRY(__asan_poison_memory_region)(uint64_t addr, uint64_t size);
void LDSAN_ENTRY(__asan_unpoison_memory_region)(uint64_t addr, uint64_t size);

/* block.c: LDS blocks and device malloc. */
uint64_t LDSAN_ENTRY(__asan_malloc_impl)(uint64_t size, uint64_t pc);
void LDSAN_ENTRY(__asan_free_impl)(uint64_t ptr, uint64_t pc);
/* A workgroup's block: enter on its work-item 0, then enter_wave (its
 * shadow) on every lane of that work-item's wave; at the end exit_wave on that
 * wave (the plugin's kernels), or exit on work-item 0 alone (the same work
 * done by one lane). */
uint64_t __ldsan_kernel_enter(uint64_t block_size, uint64_t kernel_desc);
/* The dispatch's dynamic LDS bytes (the plugin calls it in place of the
 * implicit argument hidden_dynamic_lds_size). */
uint32_t __ldsan_dynamic_lds_size(void);
void __ldsan_kernel_enter_wave(uint64_t block, uint64_t kernel_desc);
void __ldsan_kernel_exit_wave(uint64_t block, uint64_t kernel_desc);
void __ldsan_kernel_exit(uint64_t block, uint64_t kernel_desc);
/* Built with the LDS checks (entry_points.def): enter_checked instead of
 * enter, then checks_enter on the wave of work-item 0 after enter_wave. */
uint64_t __ldsan_kernel_enter_checked(uint64_t block_size, uint64_t kernel_desc);

/* lds_checks.c: races and uninitialized reads (-fsanitize-lds). */
void __ldsan_lds_checks_enter(uint64_t block);
void __ldsan_lds_check(uint32_t lds_offset, uint32_t size_kind);
void __ldsan_lds_check_flat(uint64_t address, uint32_t size_kind);
void __ldsan_lds_check_barrier(uint64_t pc, uint32_t size_kind);
void __ldsan_lds_check_wave_barrier(void);
void __ldsan_lds_check_exit(uint32_t size_kind);

/* globals.c: instrumented globals and module init. */
void LDSAN_ENTRY(__asan_register_globals)(uint64_t globals, uint64_t n);
void LDSAN_ENTRY(__asan_unregister_globals)(uint64_t globals, uint64_t n);
void LDSAN_ENTRY(__asan_register_elf_globals)(uint64_t flag, uint64_t start, uint64_t stop);
void LDSAN_ENTRY(__asan_unregister_elf_globals)(uint64_t flag, uint64_t start, uint64_t stop);
void LDSAN_ENTRY(__asan_register_image_globals)(uint64_t flag);
void LDSAN_ENTRY(__asan_unregister_image_globals)(uint64_t flag);
void LDSAN_ENTRY(__asan_init)(void);
void LDSAN_ENTRY(__asan_version_mismatch_check_v8)(void);
void LDSAN_ENTRY(__asan_before_dynamic_init)(uint64_t module_name);
void LDSAN_ENTRY(__asan_after_dynamic_init)(void);
void LDSAN_ENTRY(__asan_handle_no_return)(void);

/* The plugin's sized reports of LDS accesses checked byte by byte upstream. */
#define LDSAN_DECLARE_REPORT_SIZED(op, is_write)                                 \
  void __ldsan_report_##op##_sized(uint64_t addr, uint64_t size);                \
  void __ldsan_report_##op##_sized_noabort(uint64_t addr, uint64_t size);
LDSAN_ACCESS_OPS(LDSAN_DECLARE_REPORT_SIZED)

#endif /* LDSAN_DEVICE_ENTRY_POINTS_H */
