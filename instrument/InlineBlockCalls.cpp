//===- InlineBlockCalls.cpp - the runtime's block calls become kernel code -===//
#include "InlineBlockCalls.h"
#include "FreshAnalyses.h"
#include "Runtime.h"

#include "ldsan/abi.h"
#include "ldsan/entry_points.def"

#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/GlobalStatus.h"

using namespace llvm;

/// Whether V is the address of a kernel descriptor (Descriptor.h), as a
/// pointer or an integer: an object of the loaded code object, never at 0.
static bool isDescriptorAddress(const Value *V) {
  if (const auto *CE = dyn_cast<ConstantExpr>(V); CE && CE->getOpcode() == Instruction::PtrToInt)
    V = CE->getOperand(0);
  const auto *GV = dyn_cast<GlobalVariable>(V->stripPointerCasts());
  return GV && GV->hasInitializer() && GV->getSection() == LDSAN_DESC_SECTION;
}

/// Folds F's comparisons of a descriptor's address with null, which LLVM
/// leaves alone (address 0 may be valid outside address space 0). Returns
/// whether it folded one.
static bool foldDescriptorNullChecks(Function &F) {
  SmallVector<ICmpInst *, 8> Folds;
  for (Instruction &I : instructions(F))
    if (auto *C = dyn_cast<ICmpInst>(&I); C && C->isEquality())
      for (unsigned Op = 0; Op < 2; ++Op)
        if (auto *Other = dyn_cast<Constant>(C->getOperand(1 - Op));
            Other && Other->isNullValue() && isDescriptorAddress(C->getOperand(Op))) {
          Folds.push_back(C);
          break;
        }
  for (ICmpInst *C : Folds) {
    C->replaceAllUsesWith(ConstantInt::getBool(C->getType(), C->getPredicate() == ICmpInst::ICMP_NE));
    C->eraseFromParent();
  }
  return !Folds.empty();
}

/// What load LI reads, if it reads a global that holds its initializer for
/// good: a constant one, or one of this module's that nothing writes (the LDS
/// pass's layout table of a kernel without dynamic LDS,
/// llvm.amdgcn.sw.lds.<kernel>.md). Else null. The global stays as it is
/// (marked constant, the kernel's own LDS addressing would fold too, which
/// changes the kernel's register allocation).
static Constant *foldLoad(LoadInst &LI, const DataLayout &DL) {
  if (!LI.isSimple())
    return nullptr;
  APInt Offset(DL.getIndexTypeSizeInBits(LI.getPointerOperandType()), 0);
  auto *GV = dyn_cast<GlobalVariable>(LI.getPointerOperand()->stripAndAccumulateConstantOffsets(DL, Offset, true));
  if (!GV || !GV->hasDefinitiveInitializer())
    return nullptr;
  GlobalStatus GS;
  if (!GV->isConstant() && (!GV->hasLocalLinkage() || GlobalStatus::analyzeGlobal(GV, GS) ||
                            GS.StoredType != GlobalStatus::NotStored))
    return nullptr;
  return ConstantFoldLoadFromConst(GV->getInitializer(), LI.getType(), Offset, DL);
}

/// V as a constant, if the kernel computes it from constants alone (loads
/// of globals that never change, arithmetic, readfirstlane), else null.
/// Nothing of the kernel changes.
static Constant *foldToConstant(Value *V, const DataLayout &DL, unsigned Depth = 0) {
  if (auto *C = dyn_cast<Constant>(V))
    return C;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 8 || I->mayHaveSideEffects())
    return nullptr;
  if (auto *II = dyn_cast<IntrinsicInst>(I))
    return II->getIntrinsicID() == Intrinsic::amdgcn_readfirstlane ? foldToConstant(II->getArgOperand(0), DL, Depth + 1)
                                                                    : nullptr;
  if (auto *LI = dyn_cast<LoadInst>(I))
    return foldLoad(*LI, DL);
  if (isa<PHINode>(I) || isa<CallBase>(I))
    return nullptr;
  SmallVector<Constant *, 4> Ops;
  for (Value *Op : I->operands()) {
    Constant *C = foldToConstant(Op, DL, Depth + 1);
    if (!C)
      return nullptr;
    Ops.push_back(C);
  }
  return ConstantFoldInstOperands(I, Ops, DL);
}

/// A copy of CB's callee for this call alone, with each argument the kernel
/// passes as a constant (its descriptor; a kernel's block size without
/// dynamic LDS) put in, and simplified (SROA, EarlyCSE, InstCombine,
/// SimplifyCFG), so the descriptor's fields, the size class, the shadow
/// image's length and the branches on them fold away. Only the runtime's code
/// is simplified: the kernel's own code stays as its optimizer left it.
/// Returns null if no argument is constant (the callee is inlined as it is).
static Function *specializeFor(CallBase &CB, FunctionPassManager &FPM, FunctionAnalysisManager &FAM) {
  Function *F = CB.getCalledFunction();
  const DataLayout &DL = F->getDataLayout();
  SmallVector<std::pair<unsigned, Constant *>, 2> Known;
  for (unsigned I = 0; I < CB.arg_size(); ++I)
    if (Constant *C = foldToConstant(CB.getArgOperand(I), DL))
      Known.push_back({I, C});
  if (Known.empty())
    return nullptr;
  ValueToValueMapTy VMap;
  Function *Copy = CloneFunction(F, VMap);
  Copy->setLinkage(GlobalValue::InternalLinkage);
  for (auto [I, C] : Known)
    Copy->getArg(I)->replaceAllUsesWith(C);
  // Simplifying may make new comparisons with null (a select of the
  // descriptor or null, compared again): fold until none is left.
  foldDescriptorNullChecks(*Copy);
  FPM.run(*Copy, FAM);
  for (int Round = 0; Round < 4 && foldDescriptorNullChecks(*Copy); ++Round)
    FPM.run(*Copy, FAM);
  // What the passes made is the runtime's code too (InstCombine turns a
  // wave32 target's ballot.i64 into a new ballot.i32, unmarked): the CPU
  // emulator must not take it for the kernel's own cross-lane code.
  for (Instruction &I : instructions(*Copy))
    ldsan::markRuntimeCode(I);
  return Copy;
}

bool ldsan::inlineBlockCalls(Module &M, PassBuilder &PB, std::string &Why) {
  FunctionPassManager FPM;
  if (Error E = PB.parsePassPipeline(FPM, "sroa<modify-cfg>,early-cse<memssa>,instcombine<no-verify-fixpoint>,simplifycfg,instcombine<no-verify-fixpoint>")) {
    Why = "cannot build the simplification of the inlined block calls: " + toString(std::move(E));
    return false;
  }
  FreshAnalyses A(PB);

  for (const char *Name : {LDSAN_KERNEL_ENTER_NAME, LDSAN_KERNEL_ENTER_CHECKED_NAME, LDSAN_KERNEL_EXIT_NAME,
                           LDSAN_KERNEL_ENTER_WAVE_NAME, LDSAN_KERNEL_EXIT_WAVE_NAME, LDSAN_DYNAMIC_LDS_SIZE_NAME}) {
    Function *F = M.getFunction(Name);
    if (!F || F->isDeclaration())
      continue;
    SmallVector<CallBase *, 8> Calls;
    for (User *U : F->users())
      if (auto *CB = dyn_cast<CallBase>(U);
          CB && CB->getCalledFunction() == F &&
          CB->getFunction()->getCallingConv() == CallingConv::AMDGPU_KERNEL)
        Calls.push_back(CB);
    for (CallBase *CB : Calls) {
      Function *K = CB->getFunction();
      // The inlined runtime has no debug info: its code takes the call's
      // location, which the LDS lowering copied from the kernel's first
      // instruction (often a threadIdx helper in a HIP header). A report from
      // there (block too large, store full, bad free) names the kernel's own
      // line instead.
      if (DISubprogram *SP = K->getSubprogram())
        CB->setDebugLoc(DILocation::get(CB->getContext(), SP->getScopeLine() ? SP->getScopeLine() : SP->getLine(),
                                        0, SP));
      Function *Copy = specializeFor(*CB, FPM, A.FAM);
      if (Copy)
        CB->setCalledFunction(Copy);
      InlineFunctionInfo IFI;
      InlineResult R = InlineFunction(*CB, IFI);
      if (Copy) {
        A.FAM.clear(*Copy, Copy->getName());
        Copy->eraseFromParent();
      }
      if (!R.isSuccess()) {
        Why = std::string("cannot inline ") + Name + " into kernel " + K->getName().str() + ": " +
              R.getFailureReason();
        return false;
      }
    }
    if (F->use_empty() && F->hasLocalLinkage())
      F->eraseFromParent();
  }
  return true;
}
