/* ldsan-emu-retarget: symbols and the emulator image. Records kernels and
 * host-visible device globals before rewriting; strips amdgpu calling
 * conventions and attributes (and sanitize_address: the device code is
 * already instrumented); internalizes every device definition so nothing
 * clashes with the host program or host ASan (the asan_globals section and
 * its __start_/__stop_ symbols are renamed); maps the few undefined device
 * functions the core provides; then adds one trampoline per kernel
 * (void entry(void **args)), the kernel/global tables, the image, and a
 * constructor registering it and running the device constructors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Comdat.h>
#include <llvm-c/Target.h>

#include "ldsan/emu/emu_tls.h"
#include "ldsan/emu/emu.h"
#include "retarget.h"

#define RT_ASAN_SECTION "ldsan_emu_asan_globals"
#define RT_CTOR_PRIORITY 101

/* Undefined device functions the core implements, by device name. */
static const char *const rt_core_externs[] = {
    "__atomic_work_item_fence",     "__asan_init",           "__asan_version_mismatch_check_v8",
    "__asan_register_elf_globals",  "__asan_unregister_elf_globals", "__asan_handle_no_return",
    "__asan_register_globals",      "__asan_unregister_globals",
    "printf", /* device printf: cc_emulate.c compiles the device part with -fno-builtin-printf */
};

static int rt_has_prefix(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

static int rt_is_amdgpu_cc(unsigned cc) { return (cc >= 87 && cc <= 96) || cc == 100 || cc == 101; }

static LLVMValueRef rt_strip_casts(LLVMValueRef v) {
  while (v && LLVMIsAConstantExpr(v) &&
         (LLVMGetConstOpcode(v) == LLVMPtrToInt || LLVMGetConstOpcode(v) == LLVMAddrSpaceCast ||
          LLVMGetConstOpcode(v) == LLVMBitCast))
    v = LLVMGetOperand(v, 0);
  if (v && LLVMIsAGlobalAlias(v)) return rt_strip_casts(LLVMAliasGetAliasee(v));
  return v;
}

/* Size the program declared for g: from its ASan descriptor if it has one. */
static uint64_t rt_global_size(rt_ctx *c, LLVMValueRef g) {
  for (LLVMValueRef d = LLVMGetFirstGlobal(c->mod); d; d = LLVMGetNextGlobal(d)) {
    if (!rt_has_prefix(rt_name(d), "__asan_global_") || !LLVMGetInitializer(d)) continue;
    LLVMValueRef init = LLVMGetInitializer(d);
    if (LLVMGetNumOperands(init) < 2) continue;
    if (rt_strip_casts(LLVMGetOperand(init, 0)) == g && LLVMIsAConstantInt(LLVMGetOperand(init, 1)))
      return LLVMConstIntGetZExtValue(LLVMGetOperand(init, 1));
  }
  return LLVMABISizeOfType(LLVMGetModuleDataLayout(c->mod), LLVMGlobalGetValueType(g));
}

void rt_collect_kernels(rt_ctx *c) {
  for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f)) {
    if (LLVMGetFunctionCallConv(f) != LLVMAMDGPUKERNELCallConv || LLVMIsDeclaration(f)) continue;
    c->kernels = realloc(c->kernels, (c->kernel_count + 1) * sizeof *c->kernels);
    rt_kernel *k = &c->kernels[c->kernel_count++];
    memset(k, 0, sizeof *k);
    k->fn = f;
    k->arg_count = LLVMCountParams(f);
    k->name = strdup(rt_name(f));
    LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "amdgpu-lds-size", 15);
    if (a) {
      unsigned n;
      k->static_lds = (uint32_t)strtoul(LLVMGetStringAttributeValue(a, &n), NULL, 10);
    }
    uint64_t id;
    if (rt_md_int(c, f, "llvm.amdgcn.lds.kernel.id", 0, &id) == 0) {
      k->has_kernel_id = 1;
      k->kernel_id = (uint32_t)id;
    }
  }
  LLVMValueRef ctors = LLVMGetNamedGlobal(c->mod, "llvm.global_ctors");
  if (ctors && LLVMGetInitializer(ctors)) {
    LLVMValueRef init = LLVMGetInitializer(ctors);
    unsigned n = (unsigned)LLVMGetNumOperands(init);
    c->ctors = calloc(n + 1, sizeof *c->ctors);
    for (unsigned i = 0; i < n; i++) {
      LLVMValueRef fn = rt_strip_casts(LLVMGetOperand(LLVMGetOperand(init, i), 1));
      if (fn && LLVMIsAFunction(fn)) c->ctors[c->ctor_count++] = fn;
    }
  }
  if (ctors) LLVMDeleteGlobal(ctors);
  LLVMValueRef dtors = LLVMGetNamedGlobal(c->mod, "llvm.global_dtors");
  if (dtors) LLVMDeleteGlobal(dtors);
  for (LLVMValueRef g = LLVMGetFirstGlobal(c->mod); g; g = LLVMGetNextGlobal(g)) {
    const char *name = rt_name(g);
    if (!strcmp(name, "__ldsan_device_state")) c->device_state = g;
    if (!strcmp(name, "__ldsan_builtin_channel")) c->channel = g;
    LLVMLinkage l = LLVMGetLinkage(g);
    if (LLVMIsDeclaration(g) || l == LLVMInternalLinkage || l == LLVMPrivateLinkage) continue;
    if (rt_has_prefix(name, "llvm.") || rt_has_prefix(name, "__asan") || rt_has_prefix(name, "___asan") ||
        rt_has_prefix(name, "__odr_asan") || rt_addrspace(g) == (int)RT_AS_LDS)
      continue;
    c->globals = realloc(c->globals, (c->global_count + 1) * sizeof *c->globals);
    c->global_sizes = realloc(c->global_sizes, (c->global_count + 1) * sizeof *c->global_sizes);
    c->globals[c->global_count] = g;
    c->global_sizes[c->global_count++] = rt_global_size(c, g);
    /* Host-visible: hipMemcpyToSymbol writes __constant__ variables too, so
     * they must not land in read-only memory. */
    LLVMSetGlobalConstant(g, 0);
  }
}

static void rt_strip_attrs(rt_ctx *c, LLVMValueRef f) {
  unsigned n = LLVMGetAttributeCountAtIndex(f, LLVMAttributeFunctionIndex);
  LLVMAttributeRef *attrs = calloc(n + 1, sizeof *attrs);
  LLVMGetAttributesAtIndex(f, LLVMAttributeFunctionIndex, attrs);
  for (unsigned i = 0; i < n; i++) {
    if (!LLVMIsStringAttribute(attrs[i])) continue;
    unsigned len;
    const char *k = LLVMGetStringAttributeKind(attrs[i], &len);
    char key[128];
    snprintf(key, sizeof key, "%.*s", (int)len, k);
    if (rt_has_prefix(key, "amdgpu-") || !strcmp(key, "target-cpu") || !strcmp(key, "target-features") ||
        !strcmp(key, "uniform-work-group-size"))
      LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, k, len);
  }
  free(attrs);
  LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                 LLVMGetEnumAttributeKindForName("sanitize_address", 16));
  (void)c;
}

/* An instruction that uses v, for rt_error's site (its line and function):
 * one in the user's own code rather than in a kernel's checked copy (the
 * LDS checks' twin, RT_CHECKED_SUFFIX); NULL if only constants use it. */
static LLVMValueRef rt_first_user(LLVMValueRef v) {
  LLVMValueRef any = NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAInstruction(user)) continue;
    if (!rt_is_checked_copy(LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)))) return user;
    if (!any) any = user;
  }
  return any;
}

/* Device printf's arguments after the format are scalars: a GPU build
 * rejects any other ("cannot compile this non-scalar arg to printf yet"),
 * and so does the emulator's (passed on, a struct such as HIP 5.2's
 * blockDim.x proxy would shift the arguments after it). */
static void rt_check_printf_args(rt_ctx *c, LLVMValueRef printf_fn) {
  for (LLVMUseRef u = LLVMGetFirstUse(printf_fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    if (!LLVMIsACallInst(call) || rt_is_checked_copy(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call))))
      continue;
    unsigned n = LLVMGetNumArgOperands(call);
    for (unsigned i = 1; i < n; i++) {
      LLVMTypeKind k = LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(call, i)));
      if (k == LLVMIntegerTypeKind || k == LLVMDoubleTypeKind || k == LLVMFloatTypeKind || k == LLVMPointerTypeKind)
        continue;
      c->site = call;
      rt_error(c, "printf argument %u after the format is not a scalar (a GPU build rejects it too: \"cannot compile this "
                  "non-scalar arg to printf yet\"); pass a number, pointer or string, e.g. (unsigned)blockDim.x", i);
      c->site = NULL;
      break;
    }
  }
}

static void rt_fix_function(rt_ctx *c, LLVMValueRef f) {
  if (rt_is_amdgpu_cc(LLVMGetFunctionCallConv(f))) LLVMSetFunctionCallConv(f, LLVMCCallConv);
  if (LLVMGetIntrinsicID(f)) return;
  rt_strip_attrs(c, f);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
      if ((LLVMIsACallInst(in) || LLVMIsAInvokeInst(in)) && rt_is_amdgpu_cc(LLVMGetInstructionCallConv(in)))
        LLVMSetInstructionCallConv(in, LLVMCCallConv);
  const char *name = rt_name(f);
  if (!LLVMIsDeclaration(f)) {
    LLVMSetLinkage(f, LLVMInternalLinkage);
    LLVMSetVisibility(f, LLVMDefaultVisibility);
    LLVMSetComdat(f, NULL);
    return;
  }
  if (rt_has_prefix(name, "__ldsan_emu_")) return;
  if (!LLVMGetFirstUse(f)) return;
  if (!strcmp(name, "printf")) rt_check_printf_args(c, f);
  for (size_t i = 0; i < sizeof rt_core_externs / sizeof rt_core_externs[0]; i++) {
    if (strcmp(name, rt_core_externs[i])) continue;
    char buf[256];
    snprintf(buf, sizeof buf, "__ldsan_emu_%s", name + (name[0] == '_' && name[1] == '_' ? 2 : 0));
    LLVMSetValueName2(f, buf, strlen(buf));
    return;
  }
  c->site = rt_first_user(f);
  rt_error(c, "device function '%s' is used but not defined in the device code (nor provided by the emulator): "
              "define it in this file, or build every file with -fgpu-rdc and link the one that defines it",
           name);
  c->site = NULL;
}

void rt_fix_symbols(rt_ctx *c) {
  for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f)) rt_fix_function(c, f);
  for (LLVMValueRef g = LLVMGetFirstGlobal(c->mod); g; g = LLVMGetNextGlobal(g)) {
    const char *name = rt_name(g);
    if (!LLVMIsDeclaration(g)) {
      if (rt_has_prefix(name, "llvm.")) continue;
      LLVMSetLinkage(g, LLVMInternalLinkage);
      LLVMSetVisibility(g, LLVMDefaultVisibility);
      LLVMSetComdat(g, NULL);
      LLVMSetExternallyInitialized(g, 0);
      const char *sec = LLVMGetSection(g);
      if (sec && !strcmp(sec, "asan_globals")) LLVMSetSection(g, RT_ASAN_SECTION);
    } else if (!strcmp(name, "__start_asan_globals") || !strcmp(name, "__stop_asan_globals")) {
      char buf[64];
      snprintf(buf, sizeof buf, "%s%s", !strcmp(name, "__start_asan_globals") ? "__start_" : "__stop_",
               RT_ASAN_SECTION);
      LLVMSetValueName2(g, buf, strlen(buf));
    } else if (LLVMGetFirstUse(g) && !rt_has_prefix(name, "__ldsan_emu_")) {
      c->site = rt_first_user(g);
      rt_error(c, "device variable '%s' is used but not defined in the device code: define it in this file, "
                  "or build every file with -fgpu-rdc and link the one that defines it", name);
      c->site = NULL;
    }
  }
  for (LLVMValueRef a = LLVMGetFirstGlobalAlias(c->mod); a; a = LLVMGetNextGlobalAlias(a))
    if (LLVMGetLinkage(a) != LLVMPrivateLinkage) LLVMSetLinkage(a, LLVMInternalLinkage);
}

static LLVMValueRef rt_cstr(rt_ctx *c, const char *s) {
  LLVMValueRef init = LLVMConstStringInContext2(c->ctx, s, strlen(s), 0);
  LLVMValueRef g = LLVMAddGlobalInAddressSpace(c->mod, LLVMTypeOf(init), "__ldsan_emu_str", 0);
  LLVMSetInitializer(g, init);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
  return g;
}

static LLVMValueRef rt_flat(rt_ctx *c, LLVMValueRef g) {
  return g && rt_addrspace(g) ? LLVMConstAddrSpaceCast(g, c->ptr) : g ? g : LLVMConstPointerNull(c->ptr);
}

/* void __ldsan_emu_entry.<k>(void **args): loads each argument, calls k. */
/* __ldsan_emu_<what>.<kernel>(void **args): one work-item of kernel function fn. */
static LLVMValueRef rt_trampoline(rt_ctx *c, const rt_kernel *k, LLVMValueRef fn, const char *what) {
  char name[512];
  snprintf(name, sizeof name, "__ldsan_emu_%s.%s", what, k->name);
  LLVMTypeRef fty = LLVMFunctionType(c->voidt, &c->ptr, 1, 0);
  LLVMValueRef t = LLVMAddFunction(c->mod, name, fty);
  LLVMSetLinkage(t, LLVMInternalLinkage);
  LLVMPositionBuilderAtEnd(c->b, LLVMAppendBasicBlockInContext(c->ctx, t, "entry"));
  LLVMSetCurrentDebugLocation2(c->b, NULL);  /* not the last rewritten instruction's */
  if (k->has_kernel_id)
    LLVMBuildStore(c->b, LLVMConstInt(c->i32, k->kernel_id, 0), rt_tls_field(c, LDSAN_EMU_TLS_LDS_KERNEL_ID));
  unsigned n = LLVMCountParams(fn);
  LLVMValueRef *args = calloc(n + 1, sizeof *args);
  unsigned byref = LLVMGetEnumAttributeKindForName("byref", 5);
  for (unsigned i = 0; i < n; i++) {
    LLVMTypeRef pty = LLVMTypeOf(LLVMGetParam(fn, i));
    LLVMValueRef idx = LLVMConstInt(c->i64, i, 0);
    LLVMValueRef slot = LLVMBuildGEP2(c->b, c->ptr, LLVMGetParam(t, 0), &idx, 1, "");
    LLVMValueRef argp = LLVMBuildLoad2(c->b, c->ptr, slot, "");
    if (LLVMGetEnumAttributeAtIndex(fn, i + 1, byref)) {
      args[i] = LLVMGetPointerAddressSpace(pty) ? LLVMBuildAddrSpaceCast(c->b, argp, pty, "") : argp;
    } else {
      args[i] = LLVMBuildLoad2(c->b, pty, argp, "");
      LLVMSetAlignment(args[i], 1);
    }
  }
  LLVMValueRef call = LLVMBuildCall2(c->b, LLVMGlobalGetValueType(fn), fn, args, n, "");
  LLVMBuildRetVoid(c->b);
  rt_debug_trampoline(t, fn, call);
  free(args);
  return t;
}

static LLVMValueRef rt_table(rt_ctx *c, LLVMTypeRef ty, LLVMValueRef *elems, unsigned n, const char *name) {
  LLVMValueRef init = LLVMConstArray2(ty, elems, n);
  LLVMValueRef g = LLVMAddGlobalInAddressSpace(c->mod, LLVMTypeOf(init), name, 0);
  LLVMSetInitializer(g, init);
  LLVMSetLinkage(g, LLVMInternalLinkage);
  LLVMSetGlobalConstant(g, 1);
  return g;
}

/* The kernel table's element type: ldsan_emu_kernel (emu.h). */
static LLVMTypeRef rt_kernel_type(rt_ctx *c) {
  LLVMTypeRef f[17] = {c->ptr, c->ptr, c->i32, c->i32, c->ptr, c->i32, c->i64, c->i64, c->i32,
                       c->i32, c->ptr, c->ptr, c->i32, c->i64, c->i64, c->i32, c->ptr};
  return LLVMStructTypeInContext(c->ctx, f, 17, 0);
}

static LLVMValueRef rt_kernel_table_init(rt_ctx *c) {
  LLVMValueRef *ks = calloc(c->kernel_count + 1, sizeof *ks);
  for (unsigned i = 0; i < c->kernel_count; i++) {
    rt_kernel *k = &c->kernels[i];
    uint32_t lds = k->static_lds > c->lds_extent ? k->static_lds : c->lds_extent;
    if (!k->name_str) k->name_str = rt_cstr(c, k->name);
    LLVMValueRef f[17] = {k->name_str,
                         k->entry,
                         LLVMConstInt(c->i32, k->arg_count, 0), /* k->fn may be inlined away by now */
                         LLVMConstInt(c->i32, lds, 0),
                         k->group ? k->group : LLVMConstPointerNull(c->ptr),
                         LLVMConstInt(c->i32, k->frame_size, 0),
                         LLVMConstInt(c->i64, k->exit_regions, 0),
                         LLVMConstInt(c->i64, k->wave_regions, 0),
                         LLVMConstInt(c->i32, k->park_offset, 0),
                         LLVMConstInt(c->i32, (unsigned)k->lockstep, 0),
                         k->entry_checked ? k->entry_checked : LLVMConstPointerNull(c->ptr),
                         k->group_checked ? k->group_checked : LLVMConstPointerNull(c->ptr),
                         LLVMConstInt(c->i32, k->frame_size_checked, 0),
                         LLVMConstInt(c->i64, k->exit_regions_checked, 0),
                         LLVMConstInt(c->i64, k->wave_regions_checked, 0),
                         LLVMConstInt(c->i32, k->park_offset_checked, 0),
                         k->barrier_pcs_checked ? k->barrier_pcs_checked : LLVMConstPointerNull(c->ptr)};
    ks[i] = LLVMConstStructInContext(c->ctx, f, 17, 0);
  }
  LLVMValueRef init = LLVMConstArray2(rt_kernel_type(c), ks, c->kernel_count);
  free(ks);
  return init;
}

void rt_build_image(rt_ctx *c) {
  LLVMTypeRef gty_f[3] = {c->ptr, c->ptr, c->i64};
  LLVMTypeRef gty = LLVMStructTypeInContext(c->ctx, gty_f, 3, 0);
  for (unsigned i = 0; i < c->kernel_count; i++) {
    rt_kernel *k = &c->kernels[i];
    k->entry = rt_trampoline(c, k, k->fn, "entry");
    if (k->checked_fn) k->entry_checked = rt_trampoline(c, k, k->checked_fn, "entry_checked");
  }
  LLVMValueRef kinit = rt_kernel_table_init(c);
  c->kernel_table = LLVMAddGlobalInAddressSpace(c->mod, LLVMTypeOf(kinit), "__ldsan_emu_kernels", 0);
  LLVMSetInitializer(c->kernel_table, kinit);
  LLVMSetLinkage(c->kernel_table, LLVMInternalLinkage);
  LLVMSetGlobalConstant(c->kernel_table, 1);
  LLVMValueRef *gs = calloc(c->global_count + 1, sizeof *gs);
  for (unsigned i = 0; i < c->global_count; i++) {
    LLVMValueRef f[3] = {rt_cstr(c, rt_name(c->globals[i])), rt_flat(c, c->globals[i]),
                         LLVMConstInt(c->i64, c->global_sizes[i], 0)};
    gs[i] = LLVMConstStructInContext(c->ctx, f, 3, 0);
  }
  LLVMTypeRef ity_f[10] = {c->i32, c->i32, c->ptr, c->i32, c->ptr, c->ptr, c->ptr, c->ptr, c->i32, c->ptr};
  LLVMTypeRef ity = LLVMStructTypeInContext(c->ctx, ity_f, 10, 0);
  LLVMValueRef img_f[10] = {
      LLVMConstInt(c->i32, LDSAN_EMU_IMAGE_VERSION, 0),
      LLVMConstInt(c->i32, c->kernel_count, 0),
      c->kernel_table,
      LLVMConstInt(c->i32, c->global_count, 0),
      rt_table(c, gty, gs, c->global_count, "__ldsan_emu_globals"),
      rt_cstr(c, rt_source_name(c)), /* not c->input: the driver's temporary file, gone when the program runs */
      rt_flat(c, c->device_state),
      rt_flat(c, c->channel),
      LLVMConstInt(c->i32, c->wave_size, 0),
      rt_cstr(c, c->target),
  };
  LLVMValueRef img = LLVMAddGlobalInAddressSpace(c->mod, ity, "__ldsan_emu_image", 0);
  LLVMSetInitializer(img, LLVMConstStructInContext(c->ctx, img_f, 10, 0));
  LLVMSetLinkage(img, LLVMInternalLinkage);
  LLVMSetGlobalConstant(img, 1);

  LLVMTypeRef vfty = LLVMFunctionType(c->voidt, NULL, 0, 0);
  LLVMValueRef ctor = LLVMAddFunction(c->mod, "__ldsan_emu_ctor", vfty);
  LLVMSetLinkage(ctor, LLVMInternalLinkage);
  LLVMPositionBuilderAtEnd(c->b, LLVMAppendBasicBlockInContext(c->ctx, ctor, "entry"));
  LLVMSetCurrentDebugLocation2(c->b, NULL);
  LLVMTypeRef rfty = LLVMFunctionType(c->voidt, &c->ptr, 1, 0);
  LLVMBuildCall2(c->b, rfty, rt_get_fn(c, "__ldsan_emu_register_image", rfty), &img, 1, "");
  for (unsigned i = 0; i < c->ctor_count; i++) LLVMBuildCall2(c->b, vfty, c->ctors[i], NULL, 0, "");
  LLVMBuildRetVoid(c->b);

  LLVMTypeRef cty_f[3] = {c->i32, c->ptr, c->ptr};
  LLVMTypeRef cty = LLVMStructTypeInContext(c->ctx, cty_f, 3, 0);
  LLVMValueRef entry_f[3] = {LLVMConstInt(c->i32, RT_CTOR_PRIORITY, 0), ctor, LLVMConstPointerNull(c->ptr)};
  LLVMValueRef entry = LLVMConstStructInContext(c->ctx, entry_f, 3, 0);
  LLVMValueRef arr = LLVMConstArray2(cty, &entry, 1);
  LLVMValueRef gc = LLVMAddGlobalInAddressSpace(c->mod, LLVMTypeOf(arr), "llvm.global_ctors", 0);
  LLVMSetInitializer(gc, arr);
  LLVMSetLinkage(gc, LLVMAppendingLinkage);
  free(gs);
}

/* Instructions in function f. */
static unsigned instruction_count(LLVMValueRef f) {
  unsigned n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) n++;
  return n;
}

unsigned rt_form_groups(rt_ctx *c, int verbose) {
  unsigned formed = 0;
  for (unsigned i = 0; i < c->kernel_count; i++) {
    rt_kernel *k = &c->kernels[i];
    char name[512];
    snprintf(name, sizeof name, "__ldsan_emu_group.%s", k->name);
    rt_wiloop w = {.lockstep = k->lockstep};
    k->group = rt_wiloop_form(k->entry, name, &w);
    unsigned alone = k->group ? rt_wave_alone(c, k->group) : 0;
    k->frame_size = w.frame_size;
    k->exit_regions = w.exit_regions;
    k->wave_regions = w.wave_regions;
    k->park_offset = w.park_offset;
    k->chain_regions = k->group && !k->lockstep ? rt_chainable_regions(&w) : 0;
    if (k->group) formed++;
    const char *mode = k->lockstep ? ", waves in lockstep" : "";
    unsigned size = instruction_count(k->entry);
    if (verbose && k->group)
      fprintf(stderr, "ldsan-emu-retarget: kernel '%s': work-item loops%s (%u regions, %u bytes per work-item%s)%s%s\n",
              k->name, mode, w.regions, k->frame_size, size > RT_LARGE_KERNEL && !k->lockstep ?
              ", a large kernel: one loop over all work-items only in one-dimensional workgroups" : "", k->lockstep ? ", because of " : "",
              k->lockstep ? k->lockstep_why : "");
    else if (verbose)
      fprintf(stderr, "ldsan-emu-retarget: kernel '%s': fibers%s, because %s%s%s\n", k->name, mode, w.why,
              k->lockstep ? "; lockstep because of " : "", k->lockstep ? k->lockstep_why : "");
    if (verbose && alone)
      fprintf(stderr, "ldsan-emu-retarget: kernel '%s': %u cross-lane operations of ldsan's runtime code inline, for "
              "a lane alone (work-item loops)\n", k->name, alone);
    /* The LDS checks' copy gets its own loops when the kernel has them. */
    /* ... unless it is large (RT_LARGE_CHECKED): the group function of a
     * checked copy is about three times the plain one (the checks' inline
     * paths, the disjoint loops' versions), 60% of a separable convolution's
     * build, and its checks then run as fibers. */
    unsigned checked_size = k->entry_checked ? instruction_count(k->entry_checked) : 0;
    if (k->group && k->entry_checked && checked_size > RT_LARGE_CHECKED) {
      if (verbose)
        fprintf(stderr, "ldsan-emu-retarget: kernel '%s': its LDS checks run as fibers, because its checked copy has "
                "%u instructions (work-item loops up to %u)\n", k->name, checked_size, RT_LARGE_CHECKED);
    } else if (k->group && k->entry_checked) {
      rt_wiloop wc = {.lockstep = k->lockstep};
      snprintf(name, sizeof name, "__ldsan_emu_group_checked.%s", k->name);
      k->group_checked = rt_wiloop_form(k->entry_checked, name, &wc);
      if (k->group_checked) rt_wave_alone(c, k->group_checked);
      k->frame_size_checked = wc.frame_size;
      k->exit_regions_checked = wc.exit_regions;
      k->wave_regions_checked = wc.wave_regions;
      k->park_offset_checked = wc.park_offset;
      k->chain_regions_checked = k->group_checked && !k->lockstep ? rt_chainable_regions(&wc) : 0;
      k->barrier_pcs_checked = k->group_checked ? wc.barrier_pcs : NULL;
      unsigned calls = 0, inline_paths = k->group_checked ? rt_lds_track_inline(k->group_checked, &calls) : 0;
      if (verbose && k->group_checked)
        fprintf(stderr, "ldsan-emu-retarget: kernel '%s': its LDS checks run in work-item loops (%u bytes per "
                "work-item, %u of %u access checks with an inline path)\n", k->name, k->frame_size_checked,
                inline_paths, calls);
      else if (verbose)
        fprintf(stderr, "ldsan-emu-retarget: kernel '%s': its LDS checks run as fibers, because %s\n", k->name, wc.why);
    }
  }
  LLVMSetInitializer(c->kernel_table, rt_kernel_table_init(c));
  return formed;
}
