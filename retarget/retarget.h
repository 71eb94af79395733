/* ldsan-emu-retarget internals: the passes that turn lowered amdgcn device IR
 * into an x86-64 module the emulator core can run. Single-threaded tool; every
 * pass works on the one module in rt_ctx and reports problems with rt_error
 * (collected, printed, and turned into a non-zero exit by main). */
#ifndef LDSAN_EMU_RETARGET_H
#define LDSAN_EMU_RETARGET_H

#include <stdint.h>

#include "ldsan/abi.h"

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#define RT_AS_GLOBAL 1u
#define RT_AS_LDS 3u
#define RT_AS_CONSTANT 4u
#define RT_AS_PRIVATE 5u

/* One kernel found in the input, recorded before any rewriting. */
typedef struct rt_kernel {
  LLVMValueRef fn;
  unsigned arg_count;
  char *name;
  uint32_t static_lds;      /* "amdgpu-lds-size" (first number), or our own layout */
  int has_kernel_id;
  uint32_t kernel_id;       /* !llvm.amdgcn.lds.kernel.id */
  LLVMValueRef entry;       /* __ldsan_emu_entry.<name>: one work-item, as a fiber */
  LLVMValueRef checked_fn;  /* the kernel's copy with the LDS checks' calls (rt_lds_checks) */
  LLVMValueRef entry_checked; /* __ldsan_emu_entry_checked.<name>: the same for checked_fn */
  LLVMValueRef group;       /* __ldsan_emu_group.<name>: work-item loops, or NULL */
  uint32_t frame_size;
  uint64_t exit_regions;
  uint64_t wave_regions;    /* rt_wiloop.wave_regions of group */
  uint32_t park_offset;     /* rt_wiloop.park_offset of group */
  uint64_t chain_regions;   /* the regions group may go on to itself (rt_chain_regions), or 0 */
  uint64_t chain_regions_checked; /* the same for group_checked */
  LLVMValueRef group_checked; /* __ldsan_emu_group_checked.<name>: the same for entry_checked */
  uint32_t frame_size_checked;
  uint64_t exit_regions_checked;
  uint64_t wave_regions_checked;
  uint32_t park_offset_checked;
  LLVMValueRef barrier_pcs_checked; /* rt_wiloop.barrier_pcs of group_checked */
  LLVMValueRef name_str;    /* the kernel table's copy of name */
  int lockstep;             /* its waves run in lockstep (retarget_wave.cpp) */
  char lockstep_why[192];   /* the first use of the kernel's that needs it */
} rt_kernel;

typedef struct rt_ctx {
  LLVMContextRef ctx;
  LLVMModuleRef mod;
  LLVMBuilderRef b;
  const char *input;
  const char *name;         /* --name: what messages and the image call the device code, or NULL */
  int errors;
  int intrinsic_errors;     /* of them, intrinsics the emulator does not lower (rt_intrinsic_error) */
  /* Where rt_error is: the instruction being lowered (NULL: none; its function
   * and source line go into the message), and whether it is in a checked copy
   * (rt_lds_checks: its errors are its kernel's own, said once there). */
  LLVMValueRef site;
  int in_checked_copy;
  LLVMTypeRef i1, i8, i16, i32, i64, ptr, voidt;
  LLVMValueRef tls;         /* @__ldsan_emu_tls */
  uint32_t lds_extent;      /* bytes of LDS the module's LDS globals span */
  rt_kernel *kernels;
  unsigned kernel_count;
  LLVMValueRef *ctors;      /* device constructors from llvm.global_ctors */
  unsigned ctor_count;
  LLVMValueRef *globals;    /* device globals visible to the host (hipMemcpyToSymbol) */
  uint64_t *global_sizes;   /* their sizes without ASan redzones */
  unsigned global_count;
  LLVMValueRef device_state; /* __ldsan_device_state, or NULL */
  LLVMValueRef channel;      /* __ldsan_builtin_channel, or NULL */
  LLVMValueRef kernel_table; /* __ldsan_emu_kernels */
  unsigned wave_size;        /* lanes per wave of the module's target: 64, or 32 (rt_module_target) */
  char target[64];           /* its target, as HIP names it ("gfx90a:xnack+", "gfx1100"), or "" */
} rt_ctx;

/* retarget_emit.cpp: writes the object with the module's own data layout
 * (LLVMTargetMachineEmitToFile would replace it with the target's); returns 0,
 * or 1 with a malloc'd message. */
int rt_emit_object(LLVMTargetMachineRef tm, LLVMModuleRef mod, const char *path, char **msg);

/* retarget_util.c: helpers shared by the passes (retarget_main.c drives them) */
void rt_error(rt_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same for an intrinsic the emulator does not lower (counted: the tool's
 * exit status says when all errors were such, retarget_exit.h). */
void rt_intrinsic_error(rt_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* What the device code is called: --name, else the user's source file the
 * module came from (clang's source_filename), else the input's path. */
const char *rt_source_name(rt_ctx *c);
/* Returns the function `name`, declaring it with type fty if absent. */
LLVMValueRef rt_get_fn(rt_ctx *c, const char *name, LLVMTypeRef fty);
/* Builds (at the builder position) a pointer to byte `offset` of the TLS state. */
LLVMValueRef rt_tls_field(rt_ctx *c, unsigned offset);
/* Builds (at the builder position) a load of the running work-item's lane in its wave. */
LLVMValueRef rt_lane(rt_ctx *c);
/* Reads integer operand idx of metadata `kind` on a global object; 0 if present. */
int rt_md_int(rt_ctx *c, LLVMValueRef obj, const char *kind, unsigned idx, uint64_t *out);
/* Name of a value (not NUL-safe beyond LLVM's own names). */
const char *rt_name(LLVMValueRef v);
/* Address space of a pointer-typed value, or -1 if not a scalar pointer. */
int rt_addrspace(LLVMValueRef v);
/* The target the module was compiled for (read before the target attributes
 * are stripped), into c->target and c->wave_size: lanes per wave from
 * +wavefrontsize32/64 in its functions' target-features, else the processor's
 * default (gfx10 and later: 32). */
void rt_module_target(rt_ctx *c);
/* Whether c->target is gfx10 or later (RDNA: DPP row_share, row_xmask), and
 * whether it has DPP's 0x150-0x15f controls (row_newbcast on gfx90a and
 * gfx94x-gfx95x, row_share from gfx10). */
int rt_target_is_rdna(const rt_ctx *c);
int rt_target_has_row_share(const rt_ctx *c);

/* retarget_intrin.c: llvm.amdgcn.* and trap intrinsics -> inline TLS reads or
 * __ldsan_emu_* calls; unsupported ones are errors naming the function. */
void rt_lower_intrinsics(rt_ctx *c);

/* retarget_lds.c: LDS globals to fixed offsets; addrspace(3) accesses, casts
 * and memory intrinsics to the per-worker LDS window; atomic scopes. */
void rt_lower_lds(rt_ctx *c);
/* Builds the window address for an LDS pointer at the builder position. */
LLVMValueRef rt_lds_addr(rt_ctx *c, LLVMValueRef p3);

/* retarget_image.c */
void rt_collect_kernels(rt_ctx *c);   /* before any rewriting */
void rt_fix_symbols(rt_ctx *c);       /* attributes, calling conventions, linkage, externals */
void rt_build_image(rt_ctx *c);       /* trampolines, tables, registering constructor */
/* After optimizing: forms each kernel's work-item loops (retarget_wiloop.cpp)
 * and records them in the kernel table. Returns how many were formed; with
 * `verbose`, says for each kernel which way it runs and why. */
unsigned rt_form_groups(rt_ctx *c, int verbose);
/* A large kernel: more instructions than this after the first optimization.
 * What the work-item loops copy per region grows with the kernel, and so do
 * the optimizer's and the code generator's time on it (three loops per region
 * became 70% of a Needleman-Wunsch build); a large kernel's regions get no
 * one-dimensional twin (retarget_wiloop_narrow.cpp: the loop narrowed to the
 * active range of threadIdx.x), and a large checked copy no work-item loops (its
 * LDS checks run as fibers: the same reports, slower). */
#define RT_LARGE_KERNEL 4000u
/* The checked copy's own limit, lower: its group function is about three
 * times the plain one (2948 instructions: a separable convolution's 7-tap
 * kernels; the shadow versioning of shadow_ranges' wide_copy, 2105, keeps its
 * loops). */
#define RT_LARGE_CHECKED 2500u

/* retarget_flat_filter.cpp: in an LDS-only image, puts an inline test of
 * the LDS store's range (with its guards) before each call of
 * __ldsan_flat_lds_access, which then runs only for addresses that may be
 * LDS. Before the work-item loops are formed. Returns how many calls. */
unsigned rt_flat_lds_filter(LLVMModuleRef m);

/* retarget_shadow_ranges.cpp: after the work-item loops are optimized,
 * versions those whose ASan shadow checks can be done once per loop (see
 * there). Returns how many loops it versioned; the module then needs a
 * cleanup (RT_SHADOW_CLEANUP). With `verbose`, counts them per function. */
unsigned rt_hoist_shadow_checks(LLVMModuleRef m, int verbose);
#define RT_SHADOW_CLEANUP "function(instcombine<no-verify-fixpoint>,simplifycfg,loop-mssa(licm),gvn,instcombine<no-verify-fixpoint>,simplifycfg,loop-vectorize,instcombine<no-verify-fixpoint>,simplifycfg)"

/* The property (in !llvm.loop) of a work-item loop that runs a region for
 * every work-item at once, outside lockstep: the loop is the whole barrier
 * interval (retarget_wiloop.cpp sets it, retarget_lds_disjoint.cpp reads it). */
#define RT_LOOP_WHOLE_INTERVAL "ldsan.loop.whole_interval"

/* The name (a prefix: the module numbers them) of the globals in which a
 * checked group function's loops note a barrier's pc, once
 * (retarget_wiloop_regions.cpp makes them, retarget_lds_disjoint.cpp reads
 * them before a loop's copy). */
#define LDSAN_EMU_BARRIER_PC_SLOT "__ldsan_emu_barrier_pc"

/* The name suffix of rt_lds_checks' checked copies of a kernel's functions. */
#define RT_CHECKED_SUFFIX LDSAN_CHECKED_COPY_SUFFIX
/* retarget_util.c: whether function f is such a copy. */
int rt_is_checked_copy(LLVMValueRef f);

/* retarget_wiloop.cpp: work-item loops (see there). */
typedef struct rt_wiloop {
  int lockstep;             /* in: the kernel's waves run in lockstep: its cross-lane operations
                               and lockstep points end regions too */
  uint32_t frame_size;      /* per-work-item bytes the group function needs */
  uint32_t regions;         /* barriers (and, in lockstep, cross-lane stops) + 1 */
  uint64_t exit_regions;    /* bit k: region k follows the kernel-exit barrier */
  uint64_t wave_regions;    /* bit k: region k follows a cross-lane stop (lockstep) */
  uint32_t park_offset;     /* where in a work-item's frame its parked record is (wave_regions) */
  LLVMValueRef barrier_pcs; /* ptr [regions]: region k's barrier pc slot (the LDS checks' note), or NULL */
  char why[192];            /* when not formed: why the kernel stays on fibers */
} rt_wiloop;
/* Before optimizing: functions that reach a barrier or (outside ldsan's and
 * ASan's runtime) a cross-lane operation become always-inline (so kernels can
 * be formed); ldsan runtime functions that spin with s_sleep
 * become noinline (so their back-off stays out of kernel bodies). */
void rt_wiloop_prepare(LLVMModuleRef m);
/* Builds the group function of one fiber entry, or returns NULL and fills why. */
LLVMValueRef rt_wiloop_form(LLVMValueRef entry, const char *group_name, rt_wiloop *out);

/* retarget_chain.cpp: after the last optimization, makes group function
 * `group` go on to the next region itself when the core allows it
 * (LDSAN_EMU_GROUP_CHAIN) and all its work-items stopped at one barrier of a
 * later region of `regions` (see there); `checked`: a group function of the
 * LDS checks' copy, which tells the core each time. */
void rt_chain_regions(LLVMValueRef group, uint64_t regions, int checked);
/* The regions a kernel's group function may go on to: past region 0, not
 * kernel-exit or cross-lane regions, with a bit of their own; none in
 * lockstep kernels. */
uint64_t rt_chainable_regions(const rt_wiloop *w);

/* retarget_wave_alone.c: in group function `group`, the cross-lane
 * operations that the core would execute for the calling lane alone become
 * that lane's result, inline (see there). Returns how many it lowered. */
unsigned rt_wave_alone(rt_ctx *c, LLVMValueRef group);

/* retarget_wave.cpp: lockstep waves (see there). */
/* First: the device libraries' wave idioms in plain IR (a comment asm whose
 * output is its input becomes the input; reading exec becomes ballot(true)). */
void rt_wave_prepare(rt_ctx *c);
/* Before lowering: which kernels' waves run in lockstep (rt_kernel.lockstep). */
void rt_wave_classify(rt_ctx *c);
/* Before lowering: a lockstep point before every access to shared memory of
 * the lockstep kernels' own code. */
void rt_wave_points(rt_ctx *c);
/* Gives each __ldsan_emu_wave_op / __ldsan_emu_wave_mem call of function fn
 * its rank (its block's post-dominator depth; see retarget_wave.cpp). */
void rt_wave_rank_function(LLVMValueRef fn);
/* Whether ballot call ci is ASan's check of one access (per lane it needs no
 * other lane). */
int rt_wave_is_asan_check(LLVMValueRef ci);
/* After rt_wave_points: a copy of every kernel's own code with a call of
 * __ldsan_emu_lds_track before every shared-memory access (the core's LDS
 * checks), in rt_kernel.checked_fn. */
void rt_lds_checks(rt_ctx *c);
/* retarget_lds_track.cpp: in a checked copy's group function, an inline
 * path before each call of __ldsan_emu_lds_track whose size allows (whole
 * words, at most 16 bytes) for the accesses that cannot find anything
 * (lds_track.h); the call stays for the others. Returns the paths made;
 * *calls: the calls there were. */
unsigned rt_lds_track_inline(LLVMValueRef group_fn, unsigned *calls);
/* After the last optimization: the rank argument of every wave call. */
void rt_wave_rank(LLVMModuleRef m);

/* retarget_debug.cpp: line tables through retargeting (see there). */
/* Gives the trampoline `entry` of `kernel` an artificial DISubprogram in the
 * kernel's compile unit and its call of the kernel a location in it, so the
 * kernel's line tables survive inlining into it. Nothing without debug info. */
void rt_debug_trampoline(LLVMValueRef entry, LLVMValueRef kernel, LLVMValueRef call);
/* `fn` was built from copies of `from`'s instructions: gives it its own
 * artificial DISubprogram like `from`'s, moves every location's outermost scope
 * there and drops variable locations (no debug info: drops the locations). */
void rt_debug_move(LLVMValueRef fn, LLVMValueRef from);
/* Variable locations lose their amdgcn address-space operations (every x86
 * address is flat), so a debugger reads kernel variables. */
void rt_debug_flat_addresses(LLVMModuleRef mod);

/* Whether any compile unit of module m has full debug info (variables), not
 * line tables only. */
int rt_debug_has_variables(LLVMModuleRef m);

#endif /* LDSAN_EMU_RETARGET_H */
