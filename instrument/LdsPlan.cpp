//===- LdsPlan.cpp - which LDS variables each kernel gets, in which order -===//
//
// Mirrors the classification rules of upstream AMDGPUSwLowerLDS /
// AMDGPUMemoryUtils (LLVM 22) without sharing code with them: the prediction
// is checked against what the pass actually emitted (Instrument.cpp), so a
// divergence is reported instead of producing wrong descriptors.
//
//===----------------------------------------------------------------------===//
#include "LdsPlan.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/CallGraph.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"

#include <algorithm>

using namespace llvm;
using namespace ldsan;

static constexpr unsigned LocalAddressSpace = 3;

bool ldsan::isLdsKernel(const Function &F) {
  CallingConv::ID CC = F.getCallingConv();
  return CC == CallingConv::AMDGPU_KERNEL || CC == CallingConv::SPIR_KERNEL;
}

bool ldsan::isLdsVariableToLower(const GlobalVariable &GV) {
  if (GV.getAddressSpace() != LocalAddressSpace)
    return false;
  Type *Ty = GV.getValueType();
  if (!Ty->isSized())
    return false;
  const DataLayout &DL = GV.getDataLayout();
  if (DL.getTypeAllocSize(Ty) == 0)
    return true; // dynamic LDS, whatever its linkage
  if (GV.isConstant())
    return false;
  return !GV.hasInitializer() || isa<UndefValue>(GV.getInitializer());
}

/// Adds to Out every function with an instruction that uses GV, looking
/// through constant expressions (upstream turns those into instructions
/// first). Uses from global initializers do not count.
static void addUsingFunctions(const GlobalVariable &GV,
                              SmallPtrSetImpl<Function *> &Out) {
  SmallVector<const User *, 16> Work(GV.users());
  SmallPtrSet<const User *, 16> Seen;
  while (!Work.empty()) {
    const User *U = Work.pop_back_val();
    if (!Seen.insert(U).second)
      continue;
    if (auto *I = dyn_cast<Instruction>(U)) {
      Out.insert(const_cast<Function *>(I->getFunction()));
      continue;
    }
    if (isa<GlobalValue>(U) || !isa<Constant>(U))
      continue;
    append_range(Work, U->users());
  }
}

static LdsVar describeVariable(const GlobalVariable &GV) {
  const DataLayout &DL = GV.getDataLayout();
  LdsVar V;
  V.Name = GV.getName().str();
  V.Size = DL.getTypeAllocSize(GV.getValueType());
  V.Dynamic = V.Size == 0;
  V.Align = GV.getPointerAlignment(DL).value();
  SmallVector<DIGlobalVariableExpression *, 1> Exprs;
  GV.getDebugInfo(Exprs);
  for (DIGlobalVariableExpression *E : Exprs) {
    DIGlobalVariable *DV = E->getVariable();
    if (!DV)
      continue;
    V.SourceName = DV->getName().str();
    V.File = DV->getFilename().str();
    V.Line = DV->getLine();
    break;
  }
  return V;
}

namespace {

/// The call-graph walk that decides which variables reach which kernel.
class Reachability {
  CallGraph CG;
  unsigned NumVars;
  DenseMap<const Function *, BitVector> DirectUses; // per using function
  DenseMap<const Function *, BitVector> Transitive; // non-kernels only
  BitVector ThroughPointers; // reachable through an unknown call

  BitVector direct(const Function *F) const {
    auto It = DirectUses.find(F);
    return It == DirectUses.end() ? BitVector(NumVars) : It->second;
  }

  bool makesUnknownCall(const Function &F) {
    for (const CallGraphNode::CallRecord &R : *CG[&F])
      if (!R.second->getFunction())
        return true;
    return false;
  }

  /// True if the walk from K meets a call whose callee is unknown (an indirect
  /// call, or a declaration that may call back into the module).
  bool seesUnknownCall(const Function &K) {
    SmallVector<const Function *, 8> Work = {&K};
    SmallPtrSet<const Function *, 8> Seen;
    while (!Work.empty()) {
      const Function *F = Work.pop_back_val();
      for (const CallGraphNode::CallRecord &R : *CG[F]) {
        if (!R.second)
          continue;
        const Function *Callee = R.second->getFunction();
        if (!Callee)
          return true;
        if (Seen.insert(Callee).second)
          Work.push_back(Callee);
      }
    }
    return false;
  }

public:
  Reachability(Module &M, ArrayRef<GlobalVariable *> Vars)
      : CG(M), NumVars(Vars.size()), ThroughPointers(Vars.size()) {
    for (unsigned I = 0; I < Vars.size(); ++I) {
      SmallPtrSet<Function *, 8> Users;
      addUsingFunctions(*Vars[I], Users);
      for (Function *F : Users) {
        BitVector &B = DirectUses[F];
        if (B.empty())
          B.resize(NumVars);
        B.set(I);
      }
    }

    SmallVector<const Function *, 8> AddressTaken;
    for (const Function &F : M)
      if (!isLdsKernel(F) &&
          F.hasAddressTaken(nullptr, /*IgnoreCallbackUses=*/false,
                            /*IgnoreAssumeLikeCalls=*/false,
                            /*IgnoreLLVMUsed=*/true,
                            /*IgnoreARCAttachedCall=*/false))
        AddressTaken.push_back(&F);
    BitVector DirectThroughPointers(NumVars);
    for (const Function *F : AddressTaken)
      DirectThroughPointers |= direct(F);

    for (const Function &F : M) {
      if (F.isDeclaration() || isLdsKernel(F))
        continue;
      BitVector T = direct(&F);
      if (makesUnknownCall(F))
        T |= DirectThroughPointers;
      SmallVector<const Function *, 8> Work = {&F};
      SmallPtrSet<const Function *, 8> Seen;
      while (!Work.empty()) {
        const Function *G = Work.pop_back_val();
        T |= direct(G);
        for (const CallGraphNode::CallRecord &R : *CG[G])
          if (const Function *Callee = R.second->getFunction())
            if (Seen.insert(Callee).second)
              Work.push_back(Callee);
      }
      Transitive[&F] = std::move(T);
    }

    ThroughPointers = DirectThroughPointers;
    for (const Function *F : AddressTaken)
      ThroughPointers |= transitive(F);
  }

  BitVector transitive(const Function *F) const {
    auto It = Transitive.find(F);
    return It == Transitive.end() ? BitVector(NumVars) : It->second;
  }

  BitVector directOfKernel(const Function &K) const { return direct(&K); }

  BitVector indirectOfKernel(const Function &K) {
    BitVector B(NumVars);
    for (const CallGraphNode::CallRecord &R : *CG[&K])
      if (const Function *Callee = R.second->getFunction())
        B |= transitive(Callee);
    if (seesUnknownCall(K))
      B |= ThroughPointers;
    return B;
  }

  /// True if upstream keeps an (even empty) indirect entry for K: K calls
  /// anything at all.
  bool hasCalls(const Function &K) const { return CG[&K]->size() != 0; }
};

} // namespace

LdsPlan ldsan::planLdsLowering(Module &M) {
  LdsPlan Plan;

  // Absolute LDS variables were placed by an earlier lowering; upstream only
  // accepts a module in which all or none are (directly used dynamic LDS
  // excepted) and treats "all" as nothing to do.
  SmallVector<GlobalVariable *, 16> Vars;
  bool SawAbsolute = false;
  for (GlobalVariable &GV : M.globals()) {
    if (!isLdsVariableToLower(GV))
      continue;
    if (GV.isAbsoluteSymbolRef()) {
      SawAbsolute = true;
      continue;
    }
    Vars.push_back(&GV);
  }
  if (Vars.empty())
    return Plan;
  if (SawAbsolute) {
    Plan.Problem = "the module mixes LDS variables at absolute addresses with "
                   "unplaced ones (the upstream pass aborts on this)";
    return Plan;
  }

  for (GlobalVariable *GV : Vars)
    Plan.Vars.push_back(describeVariable(*GV));

  Reachability R(M, Vars);

  // Upstream lowers nothing unless a kernel that uses LDS or calls anything
  // carries sanitize_address (#131147: and then lowers every kernel).
  bool LowerAll = false;
  for (Function &K : M)
    if (!K.isDeclaration() && isLdsKernel(K) &&
        K.hasFnAttribute(Attribute::SanitizeAddress) &&
        (R.directOfKernel(K).any() || R.hasCalls(K)))
      LowerAll = true;
  if (!LowerAll)
    return Plan;

  auto ByName = [&](unsigned A, unsigned B) {
    return Plan.Vars[A].Name < Plan.Vars[B].Name;
  };

  for (Function &K : M) {
    if (K.isDeclaration() || !isLdsKernel(K))
      continue;
    BitVector Direct = R.directOfKernel(K);
    BitVector Indirect = R.indirectOfKernel(K);
    if (Direct.none() && Indirect.none())
      continue;

    KernelPlan KP;
    KP.Name = K.getName().str();
    KP.AnyIndirect = Indirect.any();
    // Groups in md order; a variable already placed is not placed again.
    BitVector Placed(Vars.size());
    auto AddGroup = [&](const BitVector &Set, bool Dynamic) {
      SmallVector<unsigned, 8> Group;
      for (unsigned I : Set.set_bits())
        if (Plan.Vars[I].Dynamic == Dynamic && !Placed.test(I))
          Group.push_back(I);
      llvm::sort(Group, ByName);
      for (unsigned I : Group) {
        Placed.set(I);
        KP.Items.push_back({I, Indirect.test(I)});
        KP.MaxAlign = std::max(KP.MaxAlign, Plan.Vars[I].Align);
        KP.NumDynamic += Dynamic;
      }
    };
    AddGroup(Direct, /*Dynamic=*/false);
    AddGroup(Indirect, /*Dynamic=*/false);
    AddGroup(Direct, /*Dynamic=*/true);
    AddGroup(Indirect, /*Dynamic=*/true);
    Plan.Kernels.push_back(std::move(KP));
  }
  return Plan;
}
