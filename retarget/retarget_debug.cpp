// ldsan-emu-retarget: debug info through retargeting, so a report's pc (an
// x86-64 return address in the retargeted kernel) symbolizes to the HIP
// source line. The kernel is inlined into functions the tool makes (the fiber
// entry __ldsan_emu_entry.<k>, the group function __ldsan_emu_group.<k>), and
// code generation emits line tables only for functions with a DISubprogram:
// those functions get an artificial one in the kernel's compile unit. Their
// frame (the outermost, below the kernel's inlined frame) is what the
// emulator's symbolizer callback drops. C++ because the C API's DIBuilder
// cannot name the compile unit a subprogram belongs to.
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

extern "C" {
#include "retarget.h"
}

using namespace llvm;

namespace {

// An artificial definition named like fn, in like's compile unit, file and line.
DISubprogram *madeSubprogram(Function &fn, const DISubprogram &like) {
  DICompileUnit *cu = like.getUnit();
  if (!cu || cu->getEmissionKind() == DICompileUnit::NoDebug) return nullptr;
  DIBuilder dib(*fn.getParent(), /*AllowUnresolved=*/false, cu);
  DIFile *file = like.getFile();
  DISubprogram::DISPFlags flags = DISubprogram::SPFlagDefinition | DISubprogram::SPFlagLocalToUnit;
  if (like.isOptimized()) flags |= DISubprogram::SPFlagOptimized;
  DISubprogram *sp =
      dib.createFunction(file, fn.getName(), StringRef(), file, like.getLine(),
                         dib.createSubroutineType(dib.getOrCreateTypeArray({})), like.getScopeLine(),
                         DINode::FlagArtificial, flags);
  fn.setSubprogram(sp);
  dib.finalizeSubprogram(sp);
  return sp;
}

} // namespace

extern "C" void rt_debug_trampoline(LLVMValueRef entry, LLVMValueRef kernel, LLVMValueRef call) {
  Function &e = *unwrap<Function>(entry);
  const DISubprogram *ksp = unwrap<Function>(kernel)->getSubprogram();
  if (!ksp) return;
  DISubprogram *sp = madeSubprogram(e, *ksp);
  if (!sp) return;
  // The call needs a location: the inliner hangs the kernel's frames below it.
  unwrap<CallInst>(call)->setDebugLoc(DILocation::get(e.getContext(), ksp->getLine(), 0, sp));
}

extern "C" void rt_debug_move(LLVMValueRef fn, LLVMValueRef from) {
  Function &f = *unwrap<Function>(fn);
  DISubprogram *old = unwrap<Function>(from)->getSubprogram();
  DISubprogram *sp = old ? madeSubprogram(f, *old) : nullptr;
  DenseMap<const MDNode *, MDNode *> cache;
  for (Instruction &i : make_early_inc_range(instructions(f))) {
    // Variable locations would need the same moving and the values they
    // name were demoted to memory: line tables are what reports need.
    i.dropDbgRecords();
    if (isa<DbgInfoIntrinsic>(i)) {
      i.eraseFromParent();
      continue;
    }
    if (!sp) {
      i.setDebugLoc(DebugLoc());
      continue;
    }
    if (i.getDebugLoc())
      i.setDebugLoc(DebugLoc::replaceInlinedAtSubprogram(i.getDebugLoc(), *sp, f.getContext(), cache));
    // !llvm.loop holds the loop's start and end locations.
    updateLoopMetadataDebugLocations(i, [&](Metadata *md) -> Metadata * {
      if (auto *loc = dyn_cast_or_null<DILocation>(md))
        return DebugLoc::replaceInlinedAtSubprogram(loc, *sp, f.getContext(), cache);
      return md;
    });
  }
}

// amdgcn variable locations name their address space in the expression
// (DW_OP_constu <space>, DW_OP_swap, DW_OP_xderef, as LLVM's AMDGPU debug
// info does for private and LDS memory). On x86-64 every address is flat:
// the sequence goes, so a debugger can read the variable (gdb stops with
// "Unhandled dwarf expression opcode 0x18" otherwise).
static DIExpression *flatExpression(DIExpression *e) {
  if (!e) return e;
  ArrayRef<uint64_t> ops = e->getElements();
  SmallVector<uint64_t, 8> kept;
  bool changed = false;
  for (size_t i = 0; i < ops.size();) {
    if (i + 3 < ops.size() && ops[i] == dwarf::DW_OP_constu && ops[i + 2] == dwarf::DW_OP_swap &&
        ops[i + 3] == dwarf::DW_OP_xderef) {
      i += 4;
      changed = true;
      continue;
    }
    // Copy one whole operation (its operands too).
    DIExpression::ExprOperand op(&ops[i]);
    unsigned size = op.getSize();
    kept.append(ops.begin() + i, ops.begin() + i + size);
    i += size;
  }
  return changed ? DIExpression::get(e->getContext(), kept) : e;
}

extern "C" void rt_debug_flat_addresses(LLVMModuleRef mod) {
  for (Function &f : *unwrap(mod))
    for (Instruction &in : instructions(f)) {
      for (DbgVariableRecord &r : filterDbgVars(in.getDbgRecordRange())) r.setExpression(flatExpression(r.getExpression()));
      if (auto *dvi = dyn_cast<DbgVariableIntrinsic>(&in))
        dvi->setExpression(flatExpression(dvi->getExpression()));
    }
}

// Whether any compile unit of the module has variables' debug info (full
// debug info, not line tables only): code generation then tracks their
// locations (retarget_main.c picks the cheaper analysis when none has).
extern "C" int rt_debug_has_variables(LLVMModuleRef M) {
  for (DICompileUnit *CU : unwrap(M)->debug_compile_units())
    if (CU->getEmissionKind() == DICompileUnit::FullDebug) return 1;
  return 0;
}
