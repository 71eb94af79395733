/* ldsan-emu-retarget: lowers llvm.amdgcn.* (and trap) intrinsics. Trivial
 * reads (ids, implicit-argument pointer, LDS kernel id, lane for ballot) are
 * inlined as loads from the worker's TLS state (emu_tls.h); everything else
 * becomes a call to __ldsan_emu_<name with '.' -> '_'> in the core. An
 * amdgcn intrinsic missing from the table is an error naming the function.
 * Cross-lane operations (ballot, icmp/fcmp, readfirstlane, readlane,
 * ds.bpermute/permute, wave.barrier) become __ldsan_emu_wave_op(op, val, arg,
 * rank) calls: the core executes them for the lanes of the wave together when
 * the kernel runs in lockstep (retarget_wave.cpp), else for the lane alone.
 * The ballot of ASan's own access checks stays a per-lane select (c ? 1 <<
 * lane : 0); mbcnt is per lane on the mask it is given.
 * Only code the kernels and device constructors can reach is checked: an
 * unreachable function (unoptimized builds keep unused device-library code)
 * that uses an unsupported intrinsic loses its body (see rt_drop_unreachable). */
#include <stdlib.h>
#include <string.h>

#include <ldsan/entry_points.def>

#include "ldsan/emu/wave_ops.h"
#include "ldsan/emu/emu_tls.h"
#include "retarget.h"

enum rt_how {
  H_ITEM_ID,    /* arg: 0/1/2 */
  H_TLS_U32,    /* arg: TLS offset */
  H_TLS_PTR,    /* arg: TLS offset; loaded as the call's pointer type */
  H_IDENTITY,   /* result = operand 0 */
  H_WAVE_SIZE,  /* result = the module's lanes per wave (rt_ctx.wave_size) */
  H_ERASE,      /* no effect on the CPU */
  H_CALL,       /* __ldsan_emu_<name>, same signature */
  H_CALL_BOOL,  /* __ldsan_emu_<name> returning int, compared != 0 */
  H_IS_SHARED,
  H_TRAP,
  H_WAVE,       /* arg: ldsan_emu_wave_op */
  H_WAVE_CMP,   /* icmp (arg 0) / fcmp (arg 1) with a constant predicate, then a ballot */
  H_WAVE_DPP,   /* update.dpp (arg 1: has old) / mov.dpp on 32-bit values, gfx9 controls */
  H_WAVE_SWIZZLE, /* ds.swizzle with an offset below 0xc000 */
  H_WRITELANE,  /* (val, lane, old): this lane's is val if it is `lane`, else old */
  H_INVERSE_BALLOT,
  H_MBCNT,      /* arg: 0 mbcnt.lo (lanes 0..31), 1 mbcnt.hi (lanes 32..63) */
};

typedef struct rt_intrin {
  const char *name;  /* full name; a trailing '*' matches any suffix */
  enum rt_how how;
  unsigned arg;
} rt_intrin;

static const rt_intrin rt_table[] = {
    {"llvm.amdgcn.workitem.id.x", H_ITEM_ID, 0},
    {"llvm.amdgcn.workitem.id.y", H_ITEM_ID, 1},
    {"llvm.amdgcn.workitem.id.z", H_ITEM_ID, 2},
    {"llvm.amdgcn.workgroup.id.x", H_TLS_U32, LDSAN_EMU_TLS_GROUP_ID},
    {"llvm.amdgcn.workgroup.id.y", H_TLS_U32, LDSAN_EMU_TLS_GROUP_ID + 4},
    {"llvm.amdgcn.workgroup.id.z", H_TLS_U32, LDSAN_EMU_TLS_GROUP_ID + 8},
    {"llvm.amdgcn.lds.kernel.id", H_TLS_U32, LDSAN_EMU_TLS_LDS_KERNEL_ID},
    {"llvm.amdgcn.groupstaticsize", H_TLS_U32, LDSAN_EMU_TLS_STATIC_LDS},
    {"llvm.amdgcn.implicitarg.ptr", H_TLS_PTR, LDSAN_EMU_TLS_IMPLICITARG},
    {"llvm.amdgcn.dispatch.ptr", H_TLS_PTR, LDSAN_EMU_TLS_DISPATCH},
    {"llvm.amdgcn.ballot.i64", H_WAVE, LDSAN_EMU_WAVE_BALLOT},
    {"llvm.amdgcn.ballot.i32", H_WAVE, LDSAN_EMU_WAVE_BALLOT},
    {"llvm.amdgcn.icmp*", H_WAVE_CMP, 0},
    {"llvm.amdgcn.fcmp*", H_WAVE_CMP, 1},
    {"llvm.amdgcn.readfirstlane*", H_WAVE, LDSAN_EMU_WAVE_FIRSTLANE},
    {"llvm.amdgcn.readlane*", H_WAVE, LDSAN_EMU_WAVE_READLANE},
    {"llvm.amdgcn.ds.bpermute", H_WAVE, LDSAN_EMU_WAVE_BPERMUTE},
    {"llvm.amdgcn.ds.permute", H_WAVE, LDSAN_EMU_WAVE_PERMUTE},
    {"llvm.amdgcn.wave.barrier", H_WAVE, LDSAN_EMU_WAVE_SYNC},
    {"llvm.amdgcn.update.dpp*", H_WAVE_DPP, 1},
    {"llvm.amdgcn.mov.dpp*", H_WAVE_DPP, 0},
    {"llvm.amdgcn.ds.swizzle", H_WAVE_SWIZZLE, 0},
    {"llvm.amdgcn.writelane*", H_WRITELANE, 0},
    {"llvm.amdgcn.inverse.ballot*", H_INVERSE_BALLOT, 0},
    {"llvm.amdgcn.wavefrontsize", H_WAVE_SIZE, 0},
    {"llvm.amdgcn.mbcnt.lo", H_MBCNT, 0},
    {"llvm.amdgcn.mbcnt.hi", H_MBCNT, 1},
    {"llvm.amdgcn.s.barrier", H_CALL, 0},
    {"llvm.amdgcn.ds.gws.barrier", H_CALL, 0},  /* grid.sync() of a cooperative launch */
    {"llvm.amdgcn.ds.gws.init", H_ERASE, 0},    /* the barrier's count comes with each call */
    {"llvm.amdgcn.s.sleep", H_CALL, 0},
    {"llvm.amdgcn.s.getpc", H_CALL, 0},
    {"llvm.amdgcn.s.memtime", H_CALL, 0},
    {"llvm.amdgcn.s.memrealtime", H_CALL, 0},
    {"llvm.amdgcn.dispatch.id", H_CALL, 0},
    {"llvm.amdgcn.is.shared", H_IS_SHARED, 0},
    {"llvm.amdgcn.is.private", H_CALL_BOOL, 0},
    {"llvm.amdgcn.unreachable", H_ERASE, 0},
    {"llvm.amdgcn.s.waitcnt", H_ERASE, 0},
    {"llvm.amdgcn.s.dcache.inv", H_ERASE, 0},
    {"llvm.amdgcn.s.dcache.wb", H_ERASE, 0},
    {"llvm.amdgcn.buffer.wbinvl1*", H_ERASE, 0},
    {"llvm.amdgcn.sched.barrier", H_ERASE, 0},
    {"llvm.amdgcn.sched.group.barrier", H_ERASE, 0},
    {"llvm.amdgcn.s.setprio", H_ERASE, 0},
    {"llvm.amdgcn.iglp.opt", H_ERASE, 0},
    {"llvm.amdgcn.s.nop", H_ERASE, 0},
    {"llvm.amdgcn.trap", H_TRAP, 0},
    {"llvm.trap", H_TRAP, 0},
    {"llvm.debugtrap", H_TRAP, 0},
    {"llvm.ubsantrap", H_TRAP, 0},
    /* Math the device libraries (ocml) reach for. */
    {"llvm.amdgcn.rcp.f32", H_CALL, 0},
    {"llvm.amdgcn.rcp.f64", H_CALL, 0},
    {"llvm.amdgcn.rsq.f32", H_CALL, 0},
    {"llvm.amdgcn.rsq.f64", H_CALL, 0},
    {"llvm.amdgcn.sqrt.f32", H_CALL, 0},
    {"llvm.amdgcn.sqrt.f64", H_CALL, 0},
    {"llvm.amdgcn.exp2.f32", H_CALL, 0},
    {"llvm.amdgcn.log.f32", H_CALL, 0},
    {"llvm.amdgcn.sin.f32", H_CALL, 0},
    {"llvm.amdgcn.cos.f32", H_CALL, 0},
    {"llvm.amdgcn.fract.f32", H_CALL, 0},
    {"llvm.amdgcn.fract.f64", H_CALL, 0},
    {"llvm.amdgcn.frexp.mant.f32", H_CALL, 0},
    {"llvm.amdgcn.frexp.mant.f64", H_CALL, 0},
    {"llvm.amdgcn.frexp.exp.i32.f32", H_CALL, 0},
    {"llvm.amdgcn.frexp.exp.i32.f64", H_CALL, 0},
    {"llvm.amdgcn.fmed3.f32", H_CALL, 0},
    {"llvm.amdgcn.class.f32", H_CALL_BOOL, 0},
    {"llvm.amdgcn.class.f64", H_CALL_BOOL, 0},
    {"llvm.amdgcn.rcp.f16", H_CALL, 0},
    {"llvm.amdgcn.rsq.f16", H_CALL, 0},
    {"llvm.amdgcn.sqrt.f16", H_CALL, 0},
    {"llvm.amdgcn.fract.f16", H_CALL, 0},
    {"llvm.amdgcn.frexp.mant.f16", H_CALL, 0},
    {"llvm.amdgcn.frexp.exp.i16.f16", H_CALL, 0},
    {"llvm.amdgcn.class.f16", H_CALL_BOOL, 0},
    {"llvm.amdgcn.trig.preop.f64", H_CALL, 0},
    {"llvm.amdgcn.fdot2", H_CALL, 0},
};

static const rt_intrin *rt_lookup(const char *name) {
  for (size_t i = 0; i < sizeof rt_table / sizeof rt_table[0]; i++) {
    const char *t = rt_table[i].name;
    size_t n = strlen(t);
    if (t[n - 1] == '*' ? !strncmp(name, t, n - 1) : !strcmp(name, t)) return &rt_table[i];
  }
  return NULL;
}

/* "llvm.amdgcn.rcp.f32" -> "__ldsan_emu_rcp_f32"; "llvm.trap" -> "__ldsan_emu_trap". */
static char *rt_emu_name(const char *name) {
  const char *rest = !strncmp(name, "llvm.amdgcn.", 12) ? name + 12 : name + 5;
  size_t n = strlen(rest) + 16;
  char *s = malloc(n);
  strcpy(s, "__ldsan_emu_");
  strcat(s, rest);
  for (char *p = s; *p; p++)
    if (*p == '.') *p = '_';
  return s;
}

/* H_MBCNT: mbcnt.lo(mask, acc) = acc + the bits of mask below this lane
 * (mask covers lanes 0..31), mbcnt.hi(mask, acc) = acc + the bits of mask
 * below this lane among lanes 32..63: the bits below the lane, (1 << lane) -
 * 1 in 64 bits, give the low half or the high half of that mask. Inline: a
 * call cost the reduction's workgroups more than their ids. */
static LLVMValueRef rt_lower_mbcnt(rt_ctx *c, const rt_intrin *in, LLVMValueRef *args) {
  LLVMValueRef lane = LLVMBuildZExt(c->b, rt_lane(c), c->i64, "");
  LLVMValueRef below = LLVMBuildSub(c->b, LLVMBuildShl(c->b, LLVMConstInt(c->i64, 1, 0), lane, ""),
                                    LLVMConstInt(c->i64, 1, 0), "");
  if (in->arg) below = LLVMBuildLShr(c->b, below, LLVMConstInt(c->i64, 32, 0), "");
  LLVMValueRef bits = LLVMBuildAnd(c->b, args[0], LLVMBuildTrunc(c->b, below, c->i32, ""), "");
  LLVMTypeRef ft = LLVMFunctionType(c->i32, &c->i32, 1, 0);
  LLVMValueRef ctpop = rt_get_fn(c, "llvm.ctpop.i32", ft);
  return LLVMBuildAdd(c->b, args[1], LLVMBuildCall2(c->b, ft, ctpop, &bits, 1, ""), "emu.mbcnt");
}

/* Whether barrier call ci is the kernel-exit barrier amdgpu-sw-lower-lds puts
 * before freeing the LDS block: ldsan's plugin marks it (LDSAN_EXIT_BARRIER_MD;
 * the block's release after it is inlined code); a kernel lowered without the
 * plugin branches from it to a block calling __asan_free_impl. On a GPU, lanes
 * that returned early wait there for their wave to reconverge, so the emulator
 * must not count it as an arrival at the body's barriers (see core README). */
static int rt_is_exit_barrier(LLVMValueRef ci) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(ci);
  if (LLVMGetFunctionCallConv(LLVMGetBasicBlockParent(bb)) != LLVMAMDGPUKERNELCallConv) return 0;
  LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(LLVMGetBasicBlockParent(bb)));
  unsigned kind = LLVMGetMDKindIDInContext(ctx, LDSAN_EXIT_BARRIER_MD, (unsigned)strlen(LDSAN_EXIT_BARRIER_MD));
  if (LLVMGetMetadata(ci, kind)) return 1;
  LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
  if (!term) return 0;
  for (unsigned i = 0; i < LLVMGetNumSuccessors(term); i++)
    for (LLVMValueRef in = LLVMGetFirstInstruction(LLVMGetSuccessor(term, i)); in; in = LLVMGetNextInstruction(in))
      if (LLVMIsACallInst(in) && !strcmp(rt_name(LLVMGetCalledValue(in)), "__asan_free_impl")) return 1;
  return 0;
}

/* A cross-lane operand as the i64 the core takes (integers, pointers and
 * anything of at most 64 bits); NULL if it is wider. */
static LLVMValueRef rt_wave_to_i64(rt_ctx *c, LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (LLVMGetTypeKind(t) == LLVMPointerTypeKind) return LLVMBuildPtrToInt(c->b, v, c->i64, "");
  unsigned long long bits = LLVMSizeOfTypeInBits(LLVMGetModuleDataLayout(c->mod), t);
  if (bits > 64) return NULL;
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind) v = LLVMBuildBitCast(c->b, v, LLVMIntTypeInContext(c->ctx, (unsigned)bits), "");
  return bits == 64 ? v : LLVMBuildZExt(c->b, v, c->i64, "");
}

static LLVMValueRef rt_wave_from_i64(rt_ctx *c, LLVMValueRef v, LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) == LLVMPointerTypeKind) return LLVMBuildIntToPtr(c->b, v, t, "");
  unsigned bits = (unsigned)LLVMSizeOfTypeInBits(LLVMGetModuleDataLayout(c->mod), t);
  if (bits < 64) v = LLVMBuildTrunc(c->b, v, LLVMIntTypeInContext(c->ctx, bits), "");
  return LLVMGetTypeKind(t) == LLVMIntegerTypeKind ? v : LLVMBuildBitCast(c->b, v, t, "");
}

/* Builds __ldsan_emu_wave_op(op, val, arg, rank placeholder). Placeholders
 * differ so the optimizer never merges two operations; retarget_wave.cpp
 * gives the real ranks at the end. */
static LLVMValueRef rt_wave_call(rt_ctx *c, uint32_t op, LLVMValueRef val, LLVMValueRef arg) {
  static uint64_t placeholder;
  LLVMTypeRef pt[4] = {c->i32, c->i64, c->i32, c->i64};
  LLVMTypeRef fty = LLVMFunctionType(c->i64, pt, 4, 0);
  LLVMValueRef f = LLVMGetNamedFunction(c->mod, LDSAN_EMU_WAVE_OP_FN);
  if (!f) {
    f = rt_get_fn(c, LDSAN_EMU_WAVE_OP_FN, fty);
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(c->ctx, LLVMGetEnumAttributeKindForName("convergent", 10), 0));
  }
  LLVMValueRef a[4] = {LLVMConstInt(c->i32, op, 0), val ? val : LLVMConstInt(c->i64, 0, 0),
                       arg ? arg : LLVMConstInt(c->i32, 0, 0), LLVMConstInt(c->i64, ++placeholder, 0)};
  LLVMValueRef call = LLVMBuildCall2(c->b, fty, f, a, 4, "emu.wave");
  /* ldsan's own code (LDSAN_RUNTIME_MD) stays so: work-item loops let its
   * lanes run alone, as its algorithms allow (retarget_wiloop.cpp). */
  unsigned rt = LLVMGetMDKindIDInContext(c->ctx, LDSAN_RUNTIME_MD, (unsigned)strlen(LDSAN_RUNTIME_MD));
  if (c->site && LLVMGetMetadata(c->site, rt)) LLVMSetMetadata(call, rt, LLVMGetMetadata(c->site, rt));
  return call;
}

/* The steps of rt_lower_one, one per kind of lowering that takes more than a
 * line; each returns the replacement value of call ci (NULL: none). */

/* H_ITEM_ID: workitem.id.{x,y,z} (in->arg), read from the TLS work-item's ids. */
static LLVMValueRef rt_lower_item_id(rt_ctx *c, const rt_intrin *in) {
  LLVMValueRef item = LLVMBuildLoad2(c->b, c->ptr, rt_tls_field(c, LDSAN_EMU_TLS_ITEM), "emu.item");
  LLVMValueRef idx = LLVMConstInt(c->i64, in->arg * 4, 0);
  LLVMValueRef p = LLVMBuildInBoundsGEP2(c->b, c->i8, item, &idx, 1, "");
  return LLVMBuildLoad2(c->b, c->i32, p, "emu.tid");
}

/* H_WAVE_CMP: icmp/fcmp (in->arg: fcmp) of every lane, as a ballot. */
static LLVMValueRef rt_lower_wave_cmp(rt_ctx *c, const rt_intrin *in, const char *name, LLVMValueRef *args,
                                      LLVMTypeRef rty) {
  LLVMValueRef pred = args[2];
  if (!LLVMIsAConstantInt(pred)) {
    rt_intrinsic_error(c, "%s with a predicate that is not a constant is not supported by the CPU emulator", name);
    return NULL;
  }
  unsigned p = (unsigned)LLVMConstIntGetZExtValue(pred);
  LLVMValueRef cond = in->arg ? LLVMBuildFCmp(c->b, (LLVMRealPredicate)p, args[0], args[1], "")
                              : LLVMBuildICmp(c->b, (LLVMIntPredicate)p, args[0], args[1], "");
  LLVMValueRef r = rt_wave_call(c, LDSAN_EMU_WAVE_BALLOT, LLVMBuildZExt(c->b, cond, c->i64, ""), NULL);
  return rt_wave_from_i64(c, r, rty);
}

/* H_WAVE: the cross-lane operation in->arg (ballot, readlane, readfirstlane,
 * (b)permute, wave.barrier, ...) as a call of the core's. */
static LLVMValueRef rt_lower_wave(rt_ctx *c, LLVMValueRef ci, const rt_intrin *in, const char *name,
                                  LLVMValueRef *args, LLVMTypeRef rty) {
  LLVMValueRef val = NULL, arg = NULL;
  switch (in->arg) {
  case LDSAN_EMU_WAVE_BALLOT:
    if (rt_wave_is_asan_check(ci)) { /* per lane: c ? 1 << lane : 0 */
      LLVMValueRef l = LLVMBuildZExt(c->b, rt_lane(c), rty, "");
      LLVMValueRef bit = LLVMBuildShl(c->b, LLVMConstInt(rty, 1, 0), l, "");
      return LLVMBuildSelect(c->b, args[0], bit, LLVMConstInt(rty, 0, 0), "emu.ballot");
    }
    val = LLVMBuildZExt(c->b, args[0], c->i64, "");
    break;
  case LDSAN_EMU_WAVE_READLANE:
    arg = args[1];
    /* fall through */
  case LDSAN_EMU_WAVE_FIRSTLANE:
    if (!(val = rt_wave_to_i64(c, args[0]))) {
      rt_error(c, "%s of a value wider than 64 bits is not supported by the CPU emulator", name);
      return NULL;
    }
    break;
  case LDSAN_EMU_WAVE_BPERMUTE:
  case LDSAN_EMU_WAVE_PERMUTE:
    arg = args[0];
    val = LLVMBuildZExt(c->b, args[1], c->i64, "");
    break;
  case LDSAN_EMU_WAVE_SYNC: /* wave.barrier: ends the wave's epoch (report_wave_sync) */
    arg = LLVMConstInt(c->i32, LDSAN_EMU_WAVE_SYNC_BARRIER, 0);
    break;
  default:
    break;
  }
  LLVMValueRef r = rt_wave_call(c, in->arg, val, arg);
  return LLVMGetTypeKind(rty) == LLVMVoidTypeKind ? NULL : rt_wave_from_i64(c, r, rty);
}

/* H_WAVE_DPP: update.dpp(old, src, ctrl, row_mask, bank_mask, bound_ctrl);
 * mov.dpp without old (in->arg: update). */
static LLVMValueRef rt_lower_wave_dpp(rt_ctx *c, const rt_intrin *in, const char *name, LLVMValueRef *args,
                                      LLVMTypeRef rty) {
  unsigned k = in->arg ? 1 : 0;
  LLVMValueRef src = args[k];
  uint64_t ctl[4];
  for (unsigned i = 0; i < 4; i++) ctl[i] = LLVMIsAConstantInt(args[k + 1 + i]) ? LLVMConstIntGetZExtValue(args[k + 1 + i]) : ~0ull;
  int known = ctl[0] <= 0xff || (ctl[0] >= 0x101 && ctl[0] <= 0x12f && (ctl[0] & 0xf)) || ctl[0] == 0x130 ||
              ctl[0] == 0x134 || ctl[0] == 0x138 || ctl[0] == 0x13c || (ctl[0] >= 0x140 && ctl[0] <= 0x143) ||
              (ctl[0] >= 0x150 && ctl[0] <= 0x15f && rt_target_has_row_share(c)) ||
              (ctl[0] >= 0x160 && ctl[0] <= 0x16f && rt_target_is_rdna(c));
  if (LLVMSizeOfTypeInBits(LLVMGetModuleDataLayout(c->mod), rty) != 32 || !known || ctl[1] > 0xf || ctl[2] > 0xf ||
      ctl[3] > 1) {
    rt_error(c, "%s with dpp_ctrl %#llx on a %llu-bit value is not supported by the CPU emulator for %s (32-bit "
             "values and the gfx9 controls are; row_newbcast on gfx90a and gfx94x-gfx95x, row_share and row_xmask "
             "on gfx10 and later)", name, (unsigned long long)ctl[0],
             LLVMSizeOfTypeInBits(LLVMGetModuleDataLayout(c->mod), rty), c->target[0] ? c->target : "this target");
    return NULL;
  }
  LLVMValueRef v = rt_wave_to_i64(c, src);
  if (k) v = LLVMBuildOr(c->b, v, LLVMBuildShl(c->b, rt_wave_to_i64(c, args[0]), LLVMConstInt(c->i64, 32, 0), ""), "");
  LLVMValueRef a = LLVMConstInt(c->i32, LDSAN_EMU_DPP_ARG(ctl[0], ctl[1], ctl[2], ctl[3]), 0);
  return rt_wave_from_i64(c, rt_wave_call(c, LDSAN_EMU_WAVE_DPP, v, a), rty);
}

/* H_WAVE_SWIZZLE: ds_swizzle, but for its rotate and FFT modes. */
static LLVMValueRef rt_lower_wave_swizzle(rt_ctx *c, const char *name, LLVMValueRef *args, LLVMTypeRef rty) {
  if (!LLVMIsAConstantInt(args[1]) || LLVMConstIntGetZExtValue(args[1]) >= 0xc000) {
    rt_error(c, "%s in rotate or FFT mode (offset 0xc000 and above) is not supported by the CPU emulator", name);
    return NULL;
  }
  LLVMValueRef r = rt_wave_call(c, LDSAN_EMU_WAVE_SWIZZLE, rt_wave_to_i64(c, args[0]), args[1]);
  return rt_wave_from_i64(c, r, rty);
}

/* H_IS_SHARED: whether a flat pointer is in the workgroup's LDS window. */
static LLVMValueRef rt_lower_is_shared(rt_ctx *c, LLVMValueRef *args) {
  LLVMValueRef base = LLVMBuildLoad2(c->b, c->i64, rt_tls_field(c, LDSAN_EMU_TLS_LDS_BASE), "");
  LLVMValueRef size = LLVMBuildLoad2(c->b, c->i64, rt_tls_field(c, LDSAN_EMU_TLS_LDS_SIZE), "");
  LLVMValueRef p = LLVMBuildPtrToInt(c->b, args[0], c->i64, "");
  return LLVMBuildICmp(c->b, LLVMIntULT, LLVMBuildSub(c->b, p, base, ""), size, "emu.is.shared");
}

/* H_CALL, H_CALL_BOOL, H_TRAP: a call of the emulator's function for the
 * intrinsic (rt_emu_name; the kernel-exit barrier has its own). */
static LLVMValueRef rt_lower_call(rt_ctx *c, LLVMValueRef ci, const rt_intrin *in, const char *name,
                                  LLVMValueRef *args, unsigned nargs, LLVMTypeRef rty) {
  char *en = rt_emu_name(in->how == H_TRAP ? "llvm.trap"
                         : !strcmp(name, "llvm.amdgcn.s.barrier") && rt_is_exit_barrier(ci) ? "llvm.amdgcn.s.barrier.exit"
                                                                                              : name);
  LLVMTypeRef fty = LLVMGetCalledFunctionType(ci);
  if (in->how == H_CALL_BOOL) {
    LLVMTypeRef pt[8];
    LLVMGetParamTypes(fty, pt);
    fty = LLVMFunctionType(c->i32, pt, nargs, 0);
  } else if (in->how == H_TRAP) {
    fty = LLVMFunctionType(c->voidt, NULL, 0, 0);
    nargs = 0;
  }
  LLVMValueRef f = rt_get_fn(c, en, fty);
  if (in->how == H_TRAP)
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(c->ctx, LLVMGetEnumAttributeKindForName("noreturn", 8), 0));
  /* Barriers stay convergent, as the intrinsics were: the host optimizer
   * must not copy one into both arms of a branch (work-items would then
   * wait at different barriers, which the LDS checks report). */
  if (strstr(name, "barrier"))
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(c->ctx, LLVMGetEnumAttributeKindForName("convergent", 10), 0));
  free(en);
  LLVMValueRef r = LLVMBuildCall2(c->b, fty, f, args, nargs, "");
  if (in->how == H_CALL_BOOL) return LLVMBuildICmp(c->b, LLVMIntNE, r, LLVMConstInt(c->i32, 0, 0), "");
  return LLVMGetTypeKind(rty) == LLVMVoidTypeKind ? NULL : r;
}

/* Returns the replacement value for call `ci` of intrinsic `in` (NULL: none). */
static LLVMValueRef rt_lower_one(rt_ctx *c, LLVMValueRef ci, const rt_intrin *in, const char *name) {
  LLVMTypeRef rty = LLVMTypeOf(ci);
  unsigned nargs = (unsigned)LLVMGetNumArgOperands(ci);
  LLVMValueRef args[8];
  for (unsigned i = 0; i < nargs && i < 8; i++) args[i] = LLVMGetOperand(ci, i);
  switch (in->how) {
  case H_ITEM_ID:
    return rt_lower_item_id(c, in);
  case H_TLS_U32:
    return LLVMBuildLoad2(c->b, c->i32, rt_tls_field(c, in->arg), "emu.u32");
  case H_TLS_PTR:
    return LLVMBuildLoad2(c->b, rty, rt_tls_field(c, in->arg), "emu.ptr");
  case H_IDENTITY:
    return args[0];
  case H_WAVE_CMP:
    return rt_lower_wave_cmp(c, in, name, args, rty);
  case H_WAVE:
    return rt_lower_wave(c, ci, in, name, args, rty);
  case H_WAVE_DPP:
    return rt_lower_wave_dpp(c, in, name, args, rty);
  case H_WAVE_SWIZZLE:
    return rt_lower_wave_swizzle(c, name, args, rty);
  case H_WRITELANE:
    return LLVMBuildSelect(c->b, LLVMBuildICmp(c->b, LLVMIntEQ, rt_lane(c), args[1], ""), args[0], args[2], "emu.writelane");
  case H_INVERSE_BALLOT: {
    LLVMValueRef l = LLVMBuildZExt(c->b, rt_lane(c), LLVMTypeOf(args[0]), "");
    return LLVMBuildTrunc(c->b, LLVMBuildLShr(c->b, args[0], l, ""), c->i1, "emu.inverse.ballot");
  }
  case H_ERASE:
    return NULL;
  case H_WAVE_SIZE:
    return LLVMConstInt(c->i32, c->wave_size, 0);
  case H_MBCNT:
    return rt_lower_mbcnt(c, in, args);
  case H_IS_SHARED:
    return rt_lower_is_shared(c, args);
  case H_CALL:
  case H_CALL_BOOL:
  case H_TRAP:
    return rt_lower_call(c, ci, in, name, args, nargs, rty);
  }
  return NULL;
}

/* __atomic_work_item_fence(flags, order, scope) of older device libraries with
 * constant arguments becomes an IR fence: only seq_cst at device/system scope
 * needs a real x86 fence; narrower ones order fibers of one OS thread. */
static int rt_lower_work_item_fence(rt_ctx *c, LLVMValueRef ci) {
  LLVMValueRef order = LLVMGetOperand(ci, 1), scope = LLVMGetOperand(ci, 2);
  if (!LLVMIsAConstantInt(order) || !LLVMIsAConstantInt(scope)) return 0;
  uint64_t o = LLVMConstIntGetZExtValue(order), s = LLVMConstIntGetZExtValue(scope);
  int wide = o == 5 && (s == 2 || s == 3);
  LLVMPositionBuilderBefore(c->b, ci);
  LLVMBuildFence(c->b, wide ? LLVMAtomicOrderingSequentiallyConsistent : LLVMAtomicOrderingAcquireRelease, !wide, "");
  LLVMInstructionEraseFromParent(ci);
  return 1;
}

/* An amdgcn intrinsic the table does not know: an error if code can reach it. */
static int rt_is_unsupported(LLVMValueRef callee) {
  if (!LLVMIsAFunction(callee) || !LLVMGetIntrinsicID(callee)) return 0;
  const char *name = rt_name(callee);
  return !strncmp(name, "llvm.amdgcn.", 12) && !rt_lookup(name);
}

/* ---- reachability: which functions the kernels and constructors can run ---- */

/* Open-addressing set of values (functions and the constants leading to them). */
typedef struct rt_vset {
  LLVMValueRef *slot;
  size_t cap, n;
} rt_vset;

static size_t rt_vhash(LLVMValueRef v, size_t cap) {
  uintptr_t h = (uintptr_t)v;
  h ^= h >> 17;
  h *= (uintptr_t)0x9e3779b97f4a7c15ull;
  return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

static int rt_vset_has(const rt_vset *s, LLVMValueRef v) {
  if (!s->cap) return 0;
  for (size_t i = rt_vhash(v, s->cap);; i = (i + 1) & (s->cap - 1)) {
    if (!s->slot[i]) return 0;
    if (s->slot[i] == v) return 1;
  }
}

/* Adds v; returns 1 if it was not in the set. */
static int rt_vset_add(rt_vset *s, LLVMValueRef v) {
  if (rt_vset_has(s, v)) return 0;
  if (2 * (s->n + 1) > s->cap) {
    rt_vset bigger = {calloc(s->cap ? 2 * s->cap : 256, sizeof *s->slot), s->cap ? 2 * s->cap : 256, 0};
    if (!bigger.slot) abort();
    for (size_t i = 0; i < s->cap; i++)
      if (s->slot[i]) rt_vset_add(&bigger, s->slot[i]);
    free(s->slot);
    *s = bigger;
  }
  size_t i = rt_vhash(v, s->cap);
  while (s->slot[i]) i = (i + 1) & (s->cap - 1);
  s->slot[i] = v;
  s->n++;
  return 1;
}

typedef struct rt_reach {
  rt_vset seen;      /* reachable functions + constants already scanned */
  LLVMValueRef *work; /* reachable functions whose bodies are not scanned yet */
  size_t nwork, capwork;
} rt_reach;

/* Marks every function v refers to (itself, or through constant expressions,
 * aggregates and aliases) as reachable. Global variables are not followed:
 * every initializer is a root anyway (rt_find_reachable). */
static void rt_mark(rt_reach *r, LLVMValueRef v) {
  if (!v) return;
  if (LLVMIsAGlobalAlias(v)) {
    if (rt_vset_add(&r->seen, v)) rt_mark(r, LLVMAliasGetAliasee(v));
    return;
  }
  if (LLVMIsAFunction(v)) {
    if (!rt_vset_add(&r->seen, v)) return;
    if (r->nwork == r->capwork) {
      r->capwork = r->capwork ? 2 * r->capwork : 64;
      r->work = realloc(r->work, r->capwork * sizeof *r->work);
      if (!r->work) abort();
    }
    r->work[r->nwork++] = v;
    return;
  }
  if (!LLVMIsAConstant(v) || LLVMIsAGlobalValue(v)) return;
  int n = LLVMGetNumOperands(v);
  if (n <= 0 || !rt_vset_add(&r->seen, v)) return;
  for (int i = 0; i < n; i++) rt_mark(r, LLVMGetOperand(v, (unsigned)i));
}

/* Functions reachable from the kernels and device constructors: through
 * direct calls, and through any function address a reachable function uses
 * (an indirect call may go anywhere its address went). Conservatively, every
 * function an initializer of any global variable, an alias or an ifunc names
 * is a root too. Only instructions of unreachable functions do not count. */
static void rt_find_reachable(rt_ctx *c, rt_reach *r) {
  for (unsigned i = 0; i < c->kernel_count; i++) rt_mark(r, c->kernels[i].fn);
  for (unsigned i = 0; i < c->ctor_count; i++) rt_mark(r, c->ctors[i]);
  for (LLVMValueRef g = LLVMGetFirstGlobal(c->mod); g; g = LLVMGetNextGlobal(g)) rt_mark(r, LLVMGetInitializer(g));
  for (LLVMValueRef a = LLVMGetFirstGlobalAlias(c->mod); a; a = LLVMGetNextGlobalAlias(a)) rt_mark(r, a);
  for (LLVMValueRef i = LLVMGetFirstGlobalIFunc(c->mod); i; i = LLVMGetNextGlobalIFunc(i))
    rt_mark(r, LLVMGetGlobalIFuncResolver(i));
  while (r->nwork) {
    LLVMValueRef f = r->work[--r->nwork];
    if (LLVMHasPersonalityFn(f)) rt_mark(r, LLVMGetPersonalityFn(f));
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
        int n = LLVMGetNumOperands(in);
        for (int i = 0; i < n; i++) rt_mark(r, LLVMGetOperand(in, (unsigned)i));
      }
  }
}

static int rt_uses_unsupported(LLVMValueRef f) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
      if (LLVMIsACallInst(in) && rt_is_unsupported(LLVMGetCalledValue(in))) return 1;
  return 0;
}

/* Deletes f's body and gives it a new one: call __ldsan_emu_trap; unreachable. */
static void rt_stub_body(rt_ctx *c, LLVMValueRef f) {
  /* First cut every use of f's instructions (phis and other blocks refer to
   * them), then erase the instructions, which drops the block references of
   * the terminators, then the empty blocks. */
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
      if (LLVMGetFirstUse(in)) LLVMReplaceAllUsesWith(in, LLVMGetPoison(LLVMTypeOf(in)));
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in; (in = LLVMGetLastInstruction(bb));) LLVMInstructionEraseFromParent(in);
  for (LLVMBasicBlockRef bb; (bb = LLVMGetFirstBasicBlock(f));) LLVMDeleteBasicBlock(bb);
  LLVMTypeRef fty = LLVMFunctionType(c->voidt, NULL, 0, 0);
  LLVMValueRef trap = rt_get_fn(c, "__ldsan_emu_trap", fty);
  LLVMAddAttributeAtIndex(trap, LLVMAttributeFunctionIndex,
                          LLVMCreateEnumAttribute(c->ctx, LLVMGetEnumAttributeKindForName("noreturn", 8), 0));
  LLVMPositionBuilderAtEnd(c->b, LLVMAppendBasicBlockInContext(c->ctx, f, "unreachable"));
  LLVMBuildCall2(c->b, fty, trap, NULL, 0, "");
  LLVMBuildUnreachable(c->b);
}

/* Unoptimized device code keeps every device-library function it linked,
 * including ones using intrinsics the emulator cannot run (s.sendmsg in the
 * hostcall/signal helpers) that nothing calls. Such functions, when no kernel
 * or constructor can reach them, are not errors: each loses its body. One
 * without uses is deleted; one still called (only by other unreachable
 * functions, which may themselves be kept) gets a body that traps, so the
 * module stays valid and rt_fix_symbols sees no undefined callee. All bodies
 * are replaced before any function is deleted, so a stub's calls are gone
 * when the uses of the others are counted, whatever their order. */
static void rt_drop_unreachable(rt_ctx *c) {
  rt_reach r = {0};
  rt_find_reachable(c, &r);
  LLVMValueRef *stubbed = NULL;
  size_t n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f) || rt_vset_has(&r.seen, f) || !rt_uses_unsupported(f)) continue;
    rt_stub_body(c, f);
    stubbed = realloc(stubbed, (n + 1) * sizeof *stubbed);
    if (!stubbed) abort();
    stubbed[n++] = f;
  }
  for (size_t i = 0; i < n; i++)
    if (!LLVMGetFirstUse(stubbed[i])) LLVMDeleteFunction(stubbed[i]);
  free(stubbed);
  free(r.seen.slot);
  free(r.work);
}

/* A function of the device library (ockl, ocml, oclc), or one the device
 * compile left without a name: not the user's code. */
static int rt_is_library_fn(LLVMValueRef f) {
  size_t n = 0;
  const char *name = LLVMGetValueName2(f, &n);
  return !n || !strncmp(name, "__ockl_", 7) || !strncmp(name, "__ocml_", 7) || !strncmp(name, "__oclc_", 7);
}

/* The call in the user's code through which site (in the device library)
 * is reached: the callers of site's function, breadth first, up to the first
 * call made from a function that is not the library's, preferring the user's
 * own function to a kernel's checked copy (NULL: none). */
static LLVMValueRef rt_user_call_reaching(LLVMValueRef site) {
  enum { MAX = 64 };
  LLVMValueRef todo[MAX], copy_call = NULL;
  unsigned head = 0, tail = 0;
  todo[tail++] = LLVMGetBasicBlockParent(LLVMGetInstructionParent(site));
  while (head < tail) {
    LLVMValueRef f = todo[head++];
    for (LLVMUseRef u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef call = LLVMGetUser(u);
      if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != f) continue;
      LLVMValueRef caller = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
      if (!rt_is_library_fn(caller)) {
        if (!rt_is_checked_copy(caller)) return call;
        if (!copy_call) copy_call = call;
        continue;
      }
      int seen = 0;
      for (unsigned i = 0; i < tail; i++) seen |= todo[i] == caller;
      if (!seen && tail < MAX) todo[tail++] = caller;
    }
  }
  return copy_call;
}

void rt_lower_intrinsics(rt_ctx *c) {
  LLVMValueRef named[64]; /* user calls an error named already */
  unsigned nnamed = 0;
  rt_drop_unreachable(c);
  for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f)) {
    c->in_checked_copy = rt_is_checked_copy(f);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
      LLVMValueRef next;
      for (LLVMValueRef ci = LLVMGetFirstInstruction(bb); ci; ci = next) {
        next = LLVMGetNextInstruction(ci);
        if (!LLVMIsACallInst(ci)) continue;
        LLVMValueRef callee = LLVMGetCalledValue(ci);
        if (LLVMIsAFunction(callee) && LLVMIsDeclaration(callee) && !strcmp(rt_name(callee), "__atomic_work_item_fence") &&
            LLVMGetNumArgOperands(ci) == 3 && rt_lower_work_item_fence(c, ci))
          continue;
        if (!LLVMIsAFunction(callee) || !LLVMGetIntrinsicID(callee)) continue;
        const char *name = rt_name(callee);
        int amdgcn = !strncmp(name, "llvm.amdgcn.", 12);
        const rt_intrin *in = rt_lookup(name);
        c->site = ci; /* for rt_error */
        if (!in) {
          LLVMValueRef user = amdgcn && rt_is_library_fn(f) ? rt_user_call_reaching(ci) : NULL;
          int again = 0; /* another site of the library already named this call */
          for (unsigned i = 0; user && i < nnamed; i++) again |= named[i] == user;
          if (user && !again && nnamed < sizeof named / sizeof named[0]) named[nnamed++] = user;
          if (again) {
            c->site = NULL;
            continue;
          }
          if (user) {  /* name what the user called, where */
            c->site = user;
            rt_intrinsic_error(c, "device-library function '%s' is not supported by the CPU emulator (it uses %s, "
                                  "which only a GPU can run)", rt_name(LLVMGetCalledValue(user)), name);
          } else if (amdgcn) {
            rt_intrinsic_error(c, "intrinsic %s is not supported by the CPU emulator", name);
          }
          c->site = NULL;
          continue;
        }
        LLVMPositionBuilderBefore(c->b, ci);
        LLVMValueRef r = rt_lower_one(c, ci, in, name);
        c->site = NULL;
        if (r) LLVMReplaceAllUsesWith(ci, r);
        else if (LLVMGetTypeKind(LLVMTypeOf(ci)) != LLVMVoidTypeKind) LLVMReplaceAllUsesWith(ci, LLVMGetPoison(LLVMTypeOf(ci)));
        LLVMInstructionEraseFromParent(ci);
      }
    }
  }
  c->in_checked_copy = 0;
}
