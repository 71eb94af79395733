/* ldsan-emu-retarget: turns the lowered, runtime-linked amdgcn device bitcode
 * of one HIP TU into an x86-64 ELF object that the ldsan CPU emulator core runs.
 *   usage: ldsan-emu-retarget in.bc -o out.o [--name NAME] [--emit-ll out.ll] [-O0|-O1|-O2|-O3] [-g0]
 * --name: what the image (so the warnings of the program it goes into) and the
 * tool's errors call the device code; default its source file (rt_source_name).
 * Steps: record kernels; swap triple/data layout (allocas stay addrspace 5,
 * globals addrspace 1, both 64-bit no-op address spaces on x86; LDS pointers
 * stay 32-bit offsets); lower intrinsics; lower LDS; fix symbols; test the
 * LDS store's range inline before each flat-access check (LDS-only); add the
 * image + constructor; verify; optimize (inlining every function that reaches
 * a barrier); give each kernel work-item loops where it can
 * (retarget_wiloop.cpp; LDSAN_EMU_VERBOSE=1 says which and why not); optimize
 * again; emit. Any unsupported construct is reported with the function using
 * it and the tool exits 1. Debug info the input has is kept (line tables are
 * what turns a report's pc into a source line; retarget_debug.cpp) unless -g0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Support.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "retarget.h"
#include "ldsan/emu/retarget_exit.h"
#include "retarget_time.h"

#define RT_TRIPLE "x86_64-pc-linux-gnu"
/* Address spaces the device IR keeps: flat-sized (64-bit) global, constant and
 * private pointers, 32-bit LDS offsets; allocas in 5, globals in 1. */
#define RT_DL_EXTRA "-p1:64:64-p3:32:32-p4:64:64-p5:64:64-A5-G1"

/* Swaps in the x86-64 triple and data layout (plus the device address spaces). */
static void set_target(rt_ctx *c, LLVMTargetMachineRef tm) {
  LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
  char *dl = LLVMCopyStringRepOfTargetData(td);
  size_t n = strlen(dl) + sizeof RT_DL_EXTRA;
  char *full = malloc(n);
  snprintf(full, n, "%s%s", dl, RT_DL_EXTRA);
  LLVMSetTarget(c->mod, RT_TRIPLE);
  LLVMSetDataLayout(c->mod, full);
  free(full);
  LLVMDisposeMessage(dl);
  LLVMDisposeTargetData(td);
}

static int verify(rt_ctx *c, const char *ll) {
  char *msg = NULL;
  if (LLVMVerifyModule(c->mod, LLVMReturnStatusAction, &msg)) {
    fprintf(stderr, "ldsan-emu-retarget: internal error: %s: retargeted module is invalid:\n%s\n", c->input, msg);
    if (ll) LLVMPrintModuleToFile(c->mod, ll, NULL);
    LLVMDisposeMessage(msg);
    return 1;
  }
  LLVMDisposeMessage(msg);
  return 0;
}

static int run_passes(rt_ctx *c, LLVMTargetMachineRef tm, const char *passes) {
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPasses(c->mod, passes, tm, po);
  LLVMDisposePassBuilderOptions(po);
  if (!e) return 0;
  char *em = LLVMGetErrorMessage(e);
  fprintf(stderr, "ldsan-emu-retarget: internal error: optimizing %s: %s\n", c->input, em);
  LLVMDisposeErrorMessage(em);
  return 1;
}

/* LLVM's own options for this module. Device code has no C library, and the
 * ldsan runtime inlined into kernels writes ASan's shadow directly: the CPU
 * optimizer must not turn its fill loops into memset calls, which host ASan's
 * interceptor rejects on shadow memory (LLVM forms the memset intrinsic even
 * under "no-builtins"). Work-item loops and their versions make functions of
 * thousands of blocks, where CodeGenPrepare's default (start over on the whole
 * function after each change to the dominator tree) grows with the square of
 * the size: half the code generation time of a separable convolution; its
 * huge-function mode (revisit only changed blocks) from 1000 blocks. Line
 * tables only (ldsan-cc's default; no variables): the older variable-location
 * analysis, which finds nothing as quickly as instruction referencing does
 * (that one still models every register of every block: 2 s of 23 on the
 * convolution). LDSAN_EMU_TIME=passes: -time-passes (retarget_time.c). */
static void rt_llvm_options(rt_ctx *c, int keep_debug, int time_passes) {
  const char *args[8];
  int n = 0;
  args[n++] = "ldsan-emu-retarget";
  args[n++] = "-disable-loop-idiom-all";
  args[n++] = "-cgpp-huge-func=1000";
  if (!keep_debug || !rt_debug_has_variables(c->mod)) args[n++] = "-experimental-debug-variable-locations=false";
  if (time_passes) args[n++] = "-time-passes";
  LLVMParseCommandLineOptions(n, args, NULL);
}

/* Between the first optimization and code generation only the group functions
 * (the work-item loops rt_form_groups builds from the optimized kernels) are
 * new: every other function is marked optnone (with noinline, which optnone
 * needs) while the optimizer runs again, and unmarked after, so the second run
 * and the shadow checks' cleanup do not go over the fiber entries, the checked
 * copies' entries and the runtime again (functions optnone excludes,
 * always-inline, optsize and minsize ones, stay as they are). */
typedef struct rt_optnone_marks {
  LLVMValueRef *fns;            /* the functions marked optnone */
  unsigned char *added_noinline; /* per function: noinline was added with it */
  unsigned count;
} rt_optnone_marks;

static const char *const rt_mark_kinds[] = {"optnone", "noinline", "alwaysinline", "optsize", "minsize"};

static unsigned rt_mark_kind(int i) { return LLVMGetEnumAttributeKindForName(rt_mark_kinds[i], strlen(rt_mark_kinds[i])); }

static rt_optnone_marks rt_mark_all_but_groups(rt_ctx *c) {
  rt_optnone_marks m = {0};
  unsigned cap = 0, optnone = rt_mark_kind(0), noinline = rt_mark_kind(1);
  for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f)) {
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    if (LLVMIsDeclaration(f) || !strncmp(name, "__ldsan_emu_group", 17)) continue;
    int skip = 0;
    for (int i = 0; i < 5; i++)
      if (i != 1 && LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, rt_mark_kind(i))) skip = 1;
    if (skip) continue;
    if (m.count == cap) {
      cap = cap ? 2 * cap : 64;
      m.fns = realloc(m.fns, cap * sizeof *m.fns);
      m.added_noinline = realloc(m.added_noinline, cap);
      if (!m.fns || !m.added_noinline) {
        fprintf(stderr, "ldsan-emu-retarget: error: out of memory\n");
        exit(1);
      }
    }
    m.added_noinline[m.count] = !LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, noinline);
    if (m.added_noinline[m.count])
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c->ctx, noinline, 0));
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c->ctx, optnone, 0));
    m.fns[m.count++] = f;
  }
  return m;
}

/* Takes rt_mark_all_but_groups's marks back. */
static void rt_unmark(rt_optnone_marks *m) {
  unsigned optnone = rt_mark_kind(0), noinline = rt_mark_kind(1);
  for (unsigned i = 0; i < m->count; i++) {
    LLVMRemoveEnumAttributeAtIndex(m->fns[i], LLVMAttributeFunctionIndex, optnone);
    if (m->added_noinline[i]) LLVMRemoveEnumAttributeAtIndex(m->fns[i], LLVMAttributeFunctionIndex, noinline);
  }
  free(m->fns);
  free(m->added_noinline);
  *m = (rt_optnone_marks){0};
}

static void usage(void) {
  fprintf(stderr, "usage: ldsan-emu-retarget in.bc -o out.o [--name NAME] [--emit-ll out.ll] [-O0|-O1|-O2|-O3] [-g0]\n");
  exit(2);
}

/* The command line (usage() on a bad one). */
typedef struct rt_args {
  const char *in, *out, *ll, *name, *opt; /* opt: the optimizer's pipeline, NULL at -O0 */
  int keep_debug;
} rt_args;

static rt_args parse_args(int argc, char **argv) {
  const char *in = NULL, *out = NULL, *ll = NULL, *name = NULL, *opt = "default<O2>";
  int keep_debug = 1;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
    else if (!strcmp(argv[i], "--emit-ll") && i + 1 < argc) ll = argv[++i];
    else if (!strcmp(argv[i], "--name") && i + 1 < argc) name = argv[++i];
    else if (!strcmp(argv[i], "-O0")) opt = NULL;
    else if (!strcmp(argv[i], "-O1")) opt = "default<O1>";
    else if (!strcmp(argv[i], "-O2")) opt = "default<O2>";
    else if (!strcmp(argv[i], "-O3")) opt = "default<O3>";
    else if (!strcmp(argv[i], "-g0")) keep_debug = 0;
    else if (!strcmp(argv[i], "-g")) keep_debug = 1;  /* the default; accepted as before */
    else if (argv[i][0] == '-' || in) usage();
    else in = argv[i];
  }
  if (!in || !out) usage();
  return (rt_args){in, out, ll, name, opt, keep_debug};
}

/* Reads the bitcode into c->mod (c->ctx its context); 1 (said why) if it is
 * not amdgcn device bitcode. */
static int read_bitcode(rt_ctx *c, const char *in) {
  LLVMMemoryBufferRef buf;
  char *msg = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(in, &buf, &msg)) {
    fprintf(stderr, "ldsan-emu-retarget: error: cannot read %s: %s\n", in, msg);
    return 1;
  }
  if (LLVMParseBitcodeInContext2(c->ctx, buf, &c->mod)) {
    fprintf(stderr, "ldsan-emu-retarget: error: %s is not valid LLVM bitcode\n", in);
    return 1;
  }
  LLVMDisposeMemoryBuffer(buf);
  rt_time_step("reading the bitcode");
  const char *triple = LLVMGetTarget(c->mod);
  if (strncmp(triple, "amdgcn", 6) != 0) {
    fprintf(stderr, "ldsan-emu-retarget: error: %s: target is '%s', expected amdgcn device bitcode\n", in, triple);
    return 1;
  }
  return 0;
}

/* The builder and the types the steps share. */
static void init_types(rt_ctx *c) {
  c->b = LLVMCreateBuilderInContext(c->ctx);
  c->i1 = LLVMInt1TypeInContext(c->ctx);
  c->i8 = LLVMInt8TypeInContext(c->ctx);
  c->i16 = LLVMInt16TypeInContext(c->ctx);
  c->i32 = LLVMInt32TypeInContext(c->ctx);
  c->i64 = LLVMInt64TypeInContext(c->ctx);
  c->ptr = LLVMPointerTypeInContext(c->ctx, 0);
  c->voidt = LLVMVoidTypeInContext(c->ctx);
}

/* Makes *tm the x86-64 target machine; 1 (said why) if this LLVM has none. */
static int x86_target_machine(LLVMTargetMachineRef *tm) {
  char *msg = NULL;
  LLVMInitializeX86TargetInfo();
  LLVMInitializeX86Target();
  LLVMInitializeX86TargetMC();
  LLVMInitializeX86AsmPrinter();
  LLVMInitializeX86AsmParser(); /* the LDS checks' inline path has an asm lea (retarget_lds_track.cpp) */
  LLVMTargetRef target;
  if (LLVMGetTargetFromTriple(RT_TRIPLE, &target, &msg)) {
    fprintf(stderr, "ldsan-emu-retarget: error: no x86-64 target in this LLVM: %s\n", msg);
    return 1;
  }
  *tm = LLVMCreateTargetMachine(target, RT_TRIPLE, "x86-64", "", LLVMCodeGenLevelDefault, LLVMRelocPIC,
                                LLVMCodeModelDefault);
  return 0;
}

/* The device code made x86-64 code the emulator can run, before the
 * optimizer: -1, or the exit status when it cannot run (said why). */
static int lower(rt_ctx *c, LLVMTargetMachineRef tm, int keep_debug) {
  if (!keep_debug) LLVMStripModuleDebugInfo(c->mod);

  rt_module_target(c);
  rt_collect_kernels(c);
  set_target(c, tm);
  if (keep_debug) rt_debug_flat_addresses(c->mod);
  rt_time_step("kernels and target");
  rt_wave_prepare(c);
  rt_wave_classify(c);
  rt_wave_points(c);
  rt_time_step("lockstep waves");
  rt_lds_checks(c);
  rt_time_step("LDS checks' copies");
  rt_lower_intrinsics(c);
  rt_lower_lds(c);
  rt_fix_symbols(c);
  rt_time_step("lowering intrinsics, LDS, symbols");
  if (c->errors) {
    fprintf(stderr, "ldsan-emu-retarget: %d error(s): the device code of %s cannot run on the CPU emulator; change "
            "what is named above, or build for a GPU (ldsan-cc --offload-arch=gfx90a:xnack+)\n", c->errors,
            rt_source_name(c));
    return c->intrinsic_errors == c->errors ? LDSAN_EMU_RETARGET_EXIT_INTRINSIC : 1;
  }
  return -1;
}

/* After the last optimization: the group functions that may go on to the
 * next region themselves (rt_chain_regions); with `verbose`, says which. */
static void chain_groups(rt_ctx *c, int verbose) {
  for (unsigned i = 0; i < c->kernel_count; i++) {
    rt_kernel *k = &c->kernels[i];
    if (k->group && k->chain_regions) {
      rt_chain_regions(k->group, k->chain_regions, 0);
      if (verbose)
        fprintf(stderr, "ldsan-emu-retarget: kernel '%s': its work-item loops go on to the next region themselves "
                "when every work-item waits there (%d regions)\n", k->name, __builtin_popcountll(k->chain_regions));
    }
    if (k->group_checked && k->chain_regions_checked) {
      rt_chain_regions(k->group_checked, k->chain_regions_checked, 1);
      if (verbose)
        fprintf(stderr, "ldsan-emu-retarget: kernel '%s': its LDS checks' loops go on to the next region "
                "themselves when every work-item waits there (%d regions)\n", k->name,
                __builtin_popcountll(k->chain_regions_checked));
    }
  }
}

/* The image, then the optimizer: inline first (at -O0 only what must be
 * inlined), then give each kernel work-item loops, then optimize those.
 * 1 (said why) if something fails. */
static int build_and_optimize(rt_ctx *c, LLVMTargetMachineRef tm, const char *opt, const char *ll) {
  rt_flat_lds_filter(c->mod);
  rt_wiloop_prepare(c->mod);
  rt_build_image(c);
  if (verify(c, ll)) return 1;
  rt_time_step("image and verifying");
  if (run_passes(c, tm, opt ? opt : "always-inline")) return 1;
  rt_time_step(opt ? "optimizing (first run)" : "inlining");
  const char *v = getenv("LDSAN_EMU_VERBOSE");
  int verbose = v && *v && strcmp(v, "0") != 0;
  int groups = rt_form_groups(c, verbose);
  rt_time_step("work-item loops");
  if (groups) {
    if (verify(c, ll)) return 1;
    rt_optnone_marks marks = rt_mark_all_but_groups(c);
    if (opt && run_passes(c, tm, opt)) return 1;
    rt_time_step("optimizing (second run)");
    unsigned hoisted = opt ? rt_hoist_shadow_checks(c->mod, verbose) : 0;
    rt_time_step("shadow checks per loop");
    if (hoisted) {
      if (verify(c, ll)) return 1;
      if (run_passes(c, tm, RT_SHADOW_CLEANUP)) return 1;
      rt_time_step("cleanup after the shadow checks");
    }
    rt_unmark(&marks);
    chain_groups(c, verbose);
    if (verify(c, ll)) return 1;
  }
  return 0;
}

/* Writes --emit-ll's file and the object; 1 (said why) if one cannot be. */
static int emit(rt_ctx *c, LLVMTargetMachineRef tm, const char *out, const char *ll) {
  char *msg = NULL;
  rt_wave_rank(c->mod);
  if (ll && LLVMPrintModuleToFile(c->mod, ll, &msg)) {
    fprintf(stderr, "ldsan-emu-retarget: error: cannot write %s: %s\n", ll, msg);
    return 1;
  }
  if (rt_emit_object(tm, c->mod, out, &msg)) {
    fprintf(stderr, "ldsan-emu-retarget: error: cannot emit %s: %s\n", out, msg);
    return 1;
  }
  rt_time_step("code generation");
  return 0;
}

int main(int argc, char **argv) {
  rt_args a = parse_args(argc, argv);
  int time_passes = rt_time_init(a.name ? a.name : a.in);

  rt_ctx c = {0};
  c.input = a.in;
  c.name = a.name;
  c.ctx = LLVMContextCreate();
  if (read_bitcode(&c, a.in)) return 1;
  rt_llvm_options(&c, a.keep_debug, time_passes);
  init_types(&c);
  LLVMTargetMachineRef tm;
  if (x86_target_machine(&tm)) return 1;
  int status = lower(&c, tm, a.keep_debug);
  if (status >= 0) return status;
  if (build_and_optimize(&c, tm, a.opt, a.ll)) return 1;
  if (emit(&c, tm, a.out, a.ll)) return 1;
  rt_time_total();
  LLVMDisposeTargetMachine(tm);
  LLVMDisposeBuilder(c.b);
  LLVMDisposeModule(c.mod);
  LLVMContextDispose(c.ctx);
  if (time_passes) LLVMShutdown(); /* prints -time-passes' tables */
  return 0;
}
