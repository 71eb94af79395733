/* ldsan-emu-retarget: the IR helpers every pass of the tool uses (errors,
 * names, address spaces, declarations, the TLS state, metadata). The driver
 * (retarget_main.c) runs the passes; the passes call only these and each
 * other's entry points (retarget.h), never back into the driver. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ldsan/emu/emu_tls.h"
#include "retarget.h"

/* The C++ runtime's demangler (the tool links it: its passes are C++). */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

const char *rt_source_name(rt_ctx *c) {
  if (c->name) return c->name;
  size_t len = 0;
  const char *src = LLVMGetSourceFileName(c->mod, &len);
  /* The name clang gave the module is the user's source; the input is ldsan-cc's temporary file. */
  return src && len && strlen(src) == len ? src : c->input;
}

/* "file:line: message (in function 'name')": the user's source line where the
 * site has one (the module's source file otherwise), the function demangled. */
static int rt_verror(rt_ctx *c, const char *fmt, va_list ap) {
  if (c->in_checked_copy) return 0; /* the kernel's own copy has it too */
  unsigned len = 0, line = c->site ? LLVMGetDebugLocLine(c->site) : 0;
  const char *file = c->site ? LLVMGetDebugLocFilename(c->site, &len) : NULL;
  if (file && len && line) fprintf(stderr, "ldsan-emu-retarget: error: %.*s:%u: ", (int)len, file, line);
  else fprintf(stderr, "ldsan-emu-retarget: error: %s: ", rt_source_name(c));
  vfprintf(stderr, fmt, ap);
  if (c->site) {
    const char *name = rt_name(LLVMGetBasicBlockParent(LLVMGetInstructionParent(c->site)));
    int status = -1;
    char *plain = strncmp(name, "_Z", 2) == 0 ? __cxa_demangle(name, NULL, NULL, &status) : NULL;
    fprintf(stderr, " (in function '%s')", plain && status == 0 ? plain : name);
    free(plain);
  }
  fputc('\n', stderr);
  c->errors++;
  return 1;
}

void rt_error(rt_ctx *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  rt_verror(c, fmt, ap);
  va_end(ap);
}

void rt_intrinsic_error(rt_ctx *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  c->intrinsic_errors += rt_verror(c, fmt, ap);
  va_end(ap);
}

int rt_is_checked_copy(LLVMValueRef f) {
  size_t n = 0, k = strlen(RT_CHECKED_SUFFIX);
  const char *name = LLVMGetValueName2(f, &n);
  return n >= k && !strcmp(name + n - k, RT_CHECKED_SUFFIX);
}

const char *rt_name(LLVMValueRef v) {
  size_t n;
  const char *s = LLVMGetValueName2(v, &n);
  return (s && *s) ? s : "<unnamed>";
}

int rt_addrspace(LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (LLVMGetTypeKind(t) != LLVMPointerTypeKind) return -1;
  return (int)LLVMGetPointerAddressSpace(t);
}

LLVMValueRef rt_get_fn(rt_ctx *c, const char *name, LLVMTypeRef fty) {
  LLVMValueRef f = LLVMGetNamedFunction(c->mod, name);
  if (!f) f = LLVMAddFunction(c->mod, name, fty);
  return f;
}

LLVMValueRef rt_tls_field(rt_ctx *c, unsigned offset) {
  if (!c->tls) c->tls = LLVMGetNamedGlobal(c->mod, LDSAN_EMU_TLS_SYMBOL); /* made by retarget_wave.cpp */
  if (!c->tls) {
    c->tls = LLVMAddGlobalInAddressSpace(c->mod, LLVMArrayType2(c->i8, LDSAN_EMU_TLS_SIZE), LDSAN_EMU_TLS_SYMBOL, 0);
    LLVMSetThreadLocal(c->tls, 1);
    LLVMSetThreadLocalMode(c->tls, LLVMInitialExecTLSModel);
    LLVMSetLinkage(c->tls, LLVMExternalLinkage);
  }
  if (offset == 0) return c->tls;
  LLVMValueRef idx = LLVMConstInt(c->i64, offset, 0);
  return LLVMBuildInBoundsGEP2(c->b, c->i8, c->tls, &idx, 1, "");
}

LLVMValueRef rt_lane(rt_ctx *c) {
  LLVMValueRef item = LLVMBuildLoad2(c->b, c->ptr, rt_tls_field(c, LDSAN_EMU_TLS_ITEM), "emu.item");
  LLVMValueRef idx = LLVMConstInt(c->i64, LDSAN_EMU_ITEM_LANE, 0);
  LLVMValueRef p = LLVMBuildInBoundsGEP2(c->b, c->i8, item, &idx, 1, "");
  return LLVMBuildLoad2(c->b, c->i32, p, "emu.lane");
}

int rt_md_int(rt_ctx *c, LLVMValueRef obj, const char *kind, unsigned idx, uint64_t *out) {
  unsigned want = LLVMGetMDKindIDInContext(c->ctx, kind, (unsigned)strlen(kind));
  size_t n = 0;
  int found = -1;
  LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(obj, &n);
  for (size_t i = 0; i < n && found < 0; i++) {
    if (LLVMValueMetadataEntriesGetKind(md, (unsigned)i) != want) continue;
    LLVMValueRef node = LLVMMetadataAsValue(c->ctx, LLVMValueMetadataEntriesGetMetadata(md, (unsigned)i));
    unsigned ops = LLVMGetMDNodeNumOperands(node);
    if (idx >= ops) break;
    LLVMValueRef *v = calloc(ops, sizeof *v);
    LLVMGetMDNodeOperands(node, v);
    if (v[idx] && LLVMIsAConstantInt(v[idx])) {
      *out = LLVMConstIntGetZExtValue(v[idx]);
      found = 0;
    }
    free(v);
  }
  if (md) LLVMDisposeValueMetadataEntries(md);
  return found;
}

/* The value of string attribute `kind` of f as a C string in buf ("" if none). */
static const char *rt_fn_attr(LLVMValueRef f, const char *kind, char *buf, size_t len) {
  LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind, (unsigned)strlen(kind));
  unsigned n = 0;
  const char *v = a ? LLVMGetStringAttributeValue(a, &n) : "";
  snprintf(buf, len, "%.*s", (int)n, v);
  return buf;
}

/* gfx10xx, gfx11xx, gfx12xx: RDNA. */
static int is_rdna_cpu(const char *cpu) { return !strncmp(cpu, "gfx1", 4) && strcspn(cpu, ":") == 7; }

int rt_target_is_rdna(const rt_ctx *c) { return is_rdna_cpu(c->target); }

int rt_target_has_row_share(const rt_ctx *c) {
  return is_rdna_cpu(c->target) || !strncmp(c->target, "gfx90a", 6) || !strncmp(c->target, "gfx94", 5) ||
         !strncmp(c->target, "gfx95", 5);
}

void rt_module_target(rt_ctx *c) {
  char features[4096], cpu[48];
  c->wave_size = 64;
  c->target[0] = '\0';
  for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f)) continue;
    rt_fn_attr(f, "target-cpu", cpu, sizeof cpu);
    if (!cpu[0]) continue;
    rt_fn_attr(f, "target-features", features, sizeof features);
    /* RDNA: wave32 unless asked otherwise. */
    int rdna = is_rdna_cpu(cpu);
    c->wave_size = strstr(features, "+wavefrontsize32") ? 32 : strstr(features, "+wavefrontsize64") ? 64 : rdna ? 32 : 64;
    snprintf(c->target, sizeof c->target, "%s%s", cpu,
             strstr(features, "+xnack") ? ":xnack+" : strstr(features, "-xnack") ? ":xnack-" : "");
    return;
  }
}
