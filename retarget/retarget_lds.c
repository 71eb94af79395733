/* ldsan-emu-retarget: LDS (addrspace 3) on the CPU. LDS pointers stay 32-bit
 * offsets (p3:32:32); every access goes through the worker's LDS window:
 *   addr = __ldsan_emu_tls.lds_base + zext(offset)
 * LDS globals get fixed offsets: their !absolute_symbol when the module was
 * lowered by amdgpu-sw-lower-lds (the block pointer slot at 0), otherwise a
 * layout of our own after the absolute ones, dynamic LDS last. Casts follow
 * the AMDGPU rule: LDS offset 0xffffffff <-> flat null. Also here: memory
 * intrinsics become flat (p0) ones or __ldsan_emu_mem* calls (so a host ASan
 * never intercepts device memcpy), and atomic sync scopes become x86 ones. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Target.h>

#include "ldsan/emu/emu_tls.h"
#include "retarget.h"

/* Memory intrinsics with a constant size up to this many bytes stay
 * intrinsics (inlined as moves); larger or variable ones call the core. */
#define RT_INLINE_MEM_MAX 128u

LLVMValueRef rt_lds_addr(rt_ctx *c, LLVMValueRef p3) {
  LLVMValueRef base = LLVMBuildLoad2(c->b, c->ptr, rt_tls_field(c, LDSAN_EMU_TLS_LDS_BASE), "lds.base");
  LLVMValueRef off = LLVMBuildPtrToInt(c->b, p3, c->i32, "");
  LLVMValueRef z = LLVMBuildZExt(c->b, off, c->i64, "");
  return LLVMBuildGEP2(c->b, c->i8, base, &z, 1, "lds.addr");
}

static LLVMValueRef rt_from_lds(rt_ctx *c, LLVMValueRef p3, LLVMTypeRef dst) {
  LLVMValueRef off = LLVMBuildPtrToInt(c->b, p3, c->i32, "");
  LLVMValueRef isnull = LLVMBuildICmp(c->b, LLVMIntEQ, off, LLVMConstAllOnes(c->i32), "");
  LLVMValueRef r = LLVMBuildSelect(c->b, isnull, LLVMConstPointerNull(c->ptr), rt_lds_addr(c, p3), "");
  return LLVMGetPointerAddressSpace(dst) ? LLVMBuildAddrSpaceCast(c->b, r, dst, "") : r;
}

static LLVMValueRef rt_to_lds(rt_ctx *c, LLVMValueRef p, LLVMTypeRef p3ty) {
  LLVMValueRef pi = LLVMBuildPtrToInt(c->b, p, c->i64, "");
  LLVMValueRef base = LLVMBuildLoad2(c->b, c->i64, rt_tls_field(c, LDSAN_EMU_TLS_LDS_BASE), "");
  LLVMValueRef t = LLVMBuildTrunc(c->b, LLVMBuildSub(c->b, pi, base, ""), c->i32, "");
  LLVMValueRef isnull = LLVMBuildICmp(c->b, LLVMIntEQ, pi, LLVMConstInt(c->i64, 0, 0), "");
  LLVMValueRef off = LLVMBuildSelect(c->b, isnull, LLVMConstAllOnes(c->i32), t, "");
  return LLVMBuildIntToPtr(c->b, off, p3ty, "");
}

static LLVMValueRef rt_cast(rt_ctx *c, LLVMValueRef v, LLVMTypeRef dst) {
  int src_as = rt_addrspace(v);
  unsigned dst_as = LLVMGetPointerAddressSpace(dst);
  if (src_as == (int)RT_AS_LDS && dst_as != RT_AS_LDS) return rt_from_lds(c, v, dst);
  if (src_as != (int)RT_AS_LDS && dst_as == RT_AS_LDS) return rt_to_lds(c, v, dst);
  return LLVMBuildAddrSpaceCast(c->b, v, dst, "");
}

/* Whether constant expression v contains an addrspacecast from or to LDS. */
static int rt_const_has_lds_cast(LLVMValueRef v) {
  if (!LLVMIsAConstantExpr(v)) return 0;
  if (LLVMGetConstOpcode(v) == LLVMAddrSpaceCast &&
      (rt_addrspace(v) == (int)RT_AS_LDS || rt_addrspace(LLVMGetOperand(v, 0)) == (int)RT_AS_LDS))
    return 1;
  for (int i = 0; i < LLVMGetNumOperands(v); i++)
    if (rt_const_has_lds_cast(LLVMGetOperand(v, (unsigned)i))) return 1;
  return 0;
}

/* Rebuilds constant expression v as instructions at the builder position. */
static LLVMValueRef rt_expand_const(rt_ctx *c, LLVMValueRef v, LLVMValueRef user) {
  if (!rt_const_has_lds_cast(v)) return v;
  unsigned n = (unsigned)LLVMGetNumOperands(v);
  LLVMValueRef ops[16];
  if (n > 16) n = 16;
  for (unsigned i = 0; i < n; i++) ops[i] = rt_expand_const(c, LLVMGetOperand(v, i), user);
  switch (LLVMGetConstOpcode(v)) {
  case LLVMAddrSpaceCast: return rt_cast(c, ops[0], LLVMTypeOf(v));
  case LLVMPtrToInt:
  case LLVMIntToPtr:
  case LLVMBitCast: return LLVMBuildCast(c->b, LLVMGetConstOpcode(v), ops[0], LLVMTypeOf(v), "");
  case LLVMGetElementPtr: {
    LLVMValueRef g = LLVMBuildGEP2(c->b, LLVMGetGEPSourceElementType(v), ops[0], ops + 1, n - 1, "");
    return g;
  }
  default:
    rt_error(c, "constant expression casting an LDS pointer in function '%s' is not supported",
             rt_name(LLVMGetBasicBlockParent(LLVMGetInstructionParent(user))));
    return v;
  }
}

/* LDS globals -> inttoptr(i32 offset). Returns the extent of all LDS globals. */
static void rt_place_lds_globals(rt_ctx *c) {
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(c->mod);
  uint64_t extent = 0;
  LLVMValueRef g, next;
  for (int pass = 0; pass < 3; pass++) { /* 0: absolute, 1: static, 2: dynamic */
    for (g = LLVMGetFirstGlobal(c->mod); g; g = next) {
      next = LLVMGetNextGlobal(g);
      if (rt_addrspace(g) != (int)RT_AS_LDS) continue;
      uint64_t off, size = LLVMABISizeOfType(td, LLVMGlobalGetValueType(g));
      int absolute = rt_md_int(c, g, "absolute_symbol", 0, &off) == 0;
      if (pass == 0 && !absolute) continue;
      if (pass == 1 && (absolute || size == 0)) continue;
      if (pass == 2 && absolute) continue;
      if (!absolute) {
        uint64_t align = LLVMGetAlignment(g) ? LLVMGetAlignment(g) : 16;
        off = (extent + align - 1) / align * align;
      }
      if (off + size > extent) extent = off + size;
      LLVMValueRef addr = LLVMConstIntToPtr(LLVMConstInt(c->i32, off, 0), LLVMTypeOf(g));
      LLVMReplaceAllUsesWith(g, addr);
      LLVMDeleteGlobal(g);
    }
  }
  c->lds_extent = (uint32_t)((extent + 15) / 16 * 16);
}

static void rt_drop_used_lists(rt_ctx *c) {
  const char *names[] = {"llvm.used", "llvm.compiler.used"};
  for (int i = 0; i < 2; i++) {
    LLVMValueRef g = LLVMGetNamedGlobal(c->mod, names[i]);
    if (g) LLVMDeleteGlobal(g);
  }
}

/* Pointer argument i of a memory intrinsic as a flat pointer. */
static LLVMValueRef rt_flat_arg(rt_ctx *c, LLVMValueRef ci, unsigned i) {
  LLVMValueRef p = LLVMGetOperand(ci, i);
  int as = rt_addrspace(p);
  if (as == (int)RT_AS_LDS) return rt_lds_addr(c, p);
  return as ? LLVMBuildAddrSpaceCast(c->b, p, c->ptr, "") : p;
}

/* Rewrites a llvm.mem{cpy,move,set} call; returns 1 if it was one. */
static int rt_lower_memintrin(rt_ctx *c, LLVMValueRef ci, const char *name) {
  int set = !strncmp(name, "llvm.memset.", 12);
  const char *base = set ? "llvm.memset" : !strncmp(name, "llvm.memmove.", 13) ? "llvm.memmove" : "llvm.memcpy";
  if (!set && strncmp(name, "llvm.memmove.", 13) && strncmp(name, "llvm.memcpy.", 12)) return 0;
  LLVMValueRef len = LLVMGetOperand(ci, 2);
  int small = LLVMIsAConstantInt(len) && LLVMConstIntGetZExtValue(len) <= RT_INLINE_MEM_MAX;
  int flat = rt_addrspace(LLVMGetOperand(ci, 0)) == 0 && (set || rt_addrspace(LLVMGetOperand(ci, 1)) == 0);
  if (small && flat) return 1;
  LLVMPositionBuilderBefore(c->b, ci);
  LLVMValueRef args[4];
  args[0] = rt_flat_arg(c, ci, 0);
  args[1] = set ? LLVMGetOperand(ci, 1) : rt_flat_arg(c, ci, 1);
  args[2] = LLVMBuildZExtOrBitCast(c->b, len, c->i64, "");
  if (small) {
    args[3] = LLVMGetOperand(ci, 3);
    LLVMTypeRef tys[3] = {c->ptr, set ? c->i64 : c->ptr, c->i64};
    unsigned id = LLVMLookupIntrinsicID(base, strlen(base));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(c->mod, id, tys, set ? 2 : 3);
    LLVMBuildCall2(c->b, LLVMGlobalGetValueType(f), f, args, 4, "");
  } else {
    char fname[64];
    snprintf(fname, sizeof fname, "__ldsan_emu_%s", base + 5);
    if (set) args[1] = LLVMBuildZExt(c->b, args[1], c->i32, "");
    LLVMTypeRef pt[3] = {c->ptr, set ? c->i32 : c->ptr, c->i64};
    LLVMTypeRef fty = LLVMFunctionType(c->voidt, pt, 3, 0);
    LLVMBuildCall2(c->b, fty, rt_get_fn(c, fname, fty), args, 3, "");
  }
  LLVMInstructionEraseFromParent(ci);
  return 1;
}

/* Workgroup-or-narrower fences order only fibers of one OS thread: a compiler
 * barrier is enough. Every atomic operation stays a real (system) x86 atomic. */
static void rt_fix_scope(rt_ctx *c, LLVMValueRef in) {
  if (LLVMIsAFenceInst(in)) {
    unsigned id = LLVMGetAtomicSyncScopeID(in);
    const char *narrow[] = {"workgroup", "wavefront", "workgroup-one-as", "wavefront-one-as", "singlethread"};
    int single = 0;
    for (int i = 0; i < 5; i++)
      if (id == LLVMGetSyncScopeID(c->ctx, narrow[i], strlen(narrow[i]))) single = 1;
    LLVMSetAtomicSingleThread(in, single);
  } else if (LLVMIsAAtomicRMWInst(in) || LLVMIsAAtomicCmpXchgInst(in) ||
             ((LLVMIsALoadInst(in) || LLVMIsAStoreInst(in)) && LLVMGetOrdering(in) != LLVMAtomicOrderingNotAtomic)) {
    LLVMSetAtomicSingleThread(in, 0);
  }
}

static void rt_lower_inst(rt_ctx *c, LLVMValueRef f, LLVMValueRef in) {
  /* Constant expressions casting LDS pointers become instructions first. */
  for (unsigned i = 0; i < (unsigned)LLVMGetNumOperands(in); i++) {
    LLVMValueRef op = LLVMGetOperand(in, i);
    if (!rt_const_has_lds_cast(op)) continue;
    if (LLVMIsAPHINode(in)) LLVMPositionBuilderBefore(c->b, LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(in, i)));
    else LLVMPositionBuilderBefore(c->b, in);
    LLVMSetOperand(in, i, rt_expand_const(c, op, in));
  }
  rt_fix_scope(c, in);
  int ptr_op = -1;
  if (LLVMIsALoadInst(in) || LLVMIsAAtomicRMWInst(in) || LLVMIsAAtomicCmpXchgInst(in)) ptr_op = 0;
  else if (LLVMIsAStoreInst(in)) ptr_op = 1;
  if (ptr_op >= 0) {
    LLVMValueRef p = LLVMGetOperand(in, (unsigned)ptr_op);
    if (rt_addrspace(p) == (int)RT_AS_LDS) {
      LLVMPositionBuilderBefore(c->b, in);
      LLVMSetOperand(in, (unsigned)ptr_op, rt_lds_addr(c, p));
    } else if (LLVMGetTypeKind(LLVMTypeOf(p)) == LLVMVectorTypeKind) {
      rt_error(c, "vector-of-pointers memory access in function '%s' is not supported", rt_name(f));
    }
    return;
  }
  if (LLVMGetInstructionOpcode(in) == LLVMAddrSpaceCast) {
    LLVMValueRef src = LLVMGetOperand(in, 0);
    if (rt_addrspace(src) != (int)RT_AS_LDS && rt_addrspace(in) != (int)RT_AS_LDS) return;
    LLVMPositionBuilderBefore(c->b, in);
    LLVMReplaceAllUsesWith(in, rt_cast(c, src, LLVMTypeOf(in)));
    LLVMInstructionEraseFromParent(in);
    return;
  }
  if (LLVMIsACallInst(in)) {
    LLVMValueRef callee = LLVMGetCalledValue(in);
    if (!LLVMIsAFunction(callee) || !LLVMGetIntrinsicID(callee)) return;
    const char *name = rt_name(callee);
    if (rt_lower_memintrin(c, in, name)) return;
    for (unsigned i = 0; i < (unsigned)LLVMGetNumArgOperands(in); i++)
      if (rt_addrspace(LLVMGetOperand(in, i)) == (int)RT_AS_LDS && strncmp(name, "llvm.lifetime.", 14))
        rt_intrinsic_error(c, "intrinsic %s with an LDS pointer argument in function '%s' is not supported", name,
                           rt_name(f));
  }
}

void rt_lower_lds(rt_ctx *c) {
  rt_drop_used_lists(c);
  rt_place_lds_globals(c);
  for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
      LLVMValueRef next;
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = next) {
        next = LLVMGetNextInstruction(in);
        rt_lower_inst(c, f, in);
      }
    }
}
