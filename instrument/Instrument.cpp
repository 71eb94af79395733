//===- Instrument.cpp - the ldsan module transformation -------------------===//
//
//   plan (names, sizes, debug info, predicted md order)      read-only on M
//   clone M -> lower -> verify -> descriptors -> rewrite -> link -> strip
//   all fine?  do the same on M            else: one diagnostic, M unchanged
//
//===----------------------------------------------------------------------===//
#include "Instrument.h"

#include "BlockGuard.h"
#include "CallsTo.h"
#include "WaveShadow.h"
#include "InlineBlockCalls.h"
#include "LdsChecks.h"
#include "LdsOnly.h"
#include "Descriptor.h"
#include "FlatLdsCasts.h"
#include "Diag.h"
#include "DynamicLdsSize.h"
#include "FreshAnalyses.h"
#include "LdsPlan.h"
#include "Runtime.h"
#include "SizedReports.h"
#include "WaveFences.h"

#include "ldsan/abi.h"

#include "ldsan/entry_points.def"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;
using namespace ldsan;

static cl::opt<bool> TestUnexpectedMd(
    "ldsan-test-unexpected-md", cl::Hidden, cl::init(false),
    cl::desc("ldsan tests only: reshape every @llvm.amdgcn.sw.lds.<k>.md "
             "after lowering, as a future upstream pass might"));

static constexpr const char *SwLdsPrefix = "llvm.amdgcn.sw.lds.";
static constexpr const char *MallocName = "__asan_malloc_impl";
static constexpr const char *FreeName = "__asan_free_impl";

/// Attributes that would tell the backend the runtime's inputs are unused.
static const char *const InputAttrs[] = {
    "amdgpu-no-workgroup-id-x", "amdgpu-no-workgroup-id-y",
    "amdgpu-no-workgroup-id-z", "amdgpu-no-workitem-id-x",
    "amdgpu-no-workitem-id-y",  "amdgpu-no-workitem-id-z",
    "amdgpu-no-implicitarg-ptr", "amdgpu-no-dispatch-ptr",
    "amdgpu-no-heap-ptr",       "amdgpu-no-lds-kernel-id"};

namespace {

/// Why a module cannot be handled: rendered as
/// "<What>[, in kernel <Kernel>]; <Fix>".
struct Failure {
  std::string What;
  std::string Kernel;
  std::string Fix;

  std::string message() const {
    std::string S = What;
    if (!Kernel.empty())
      S += ", in kernel " + Kernel;
    return S + "; " + Fix;
  }
};

const char *const FixUpstream =
    "this LLVM's amdgpu-sw-lower-lds is not the one ldsan was written for; "
    "update ldsan's plugin (instrument/) or build without -fsanitize=address";

} // namespace

/// The module went through AddressSanitizerPass.
static bool isSanitized(const Module &M) {
  auto *San = mdconst::extract_or_null<ConstantInt>(
      M.getModuleFlag("nosanitize_address"));
  return San && !San->isZero();
}

bool ldsan::shouldInstrument(const Module &M) {
  if (!M.getTargetTriple().isAMDGCN() || M.getModuleFlag(InstrumentedFlag))
    return false;
  return isSanitized(M) || ldsOnlyRequested();
}

/// Runs upstream amdgpu-sw-lower-lds on X with fresh analysis managers.
static bool runUpstreamLowering(Module &X, PassBuilder &PB, Failure &F) {
  ModulePassManager MPM;
  if (Error E = PB.parsePassPipeline(MPM, "amdgpu-sw-lower-lds")) {
    F = {"cannot run the upstream pass 'amdgpu-sw-lower-lds' (" +
             toString(std::move(E)) + ")",
         "", "use an LLVM 22 built with the AMDGPU target"};
    return false;
  }
  FreshAnalyses A(PB);
  MPM.run(X, A.MAM);
  return true;
}

/// Test hook: turns each md global into {i32, i32} items, same uses.
static void reshapeMdForTest(Module &X) {
  SmallVector<GlobalVariable *, 8> Mds;
  for (GlobalVariable &GV : X.globals())
    if (GV.getName().starts_with(SwLdsPrefix) && GV.getName().ends_with(".md"))
      Mds.push_back(&GV);
  Type *I32 = Type::getInt32Ty(X.getContext());
  for (GlobalVariable *GV : Mds) {
    auto *Old = cast<StructType>(GV->getValueType());
    auto *Item = StructType::get(X.getContext(), {I32, I32});
    SmallVector<Type *, 8> Items(Old->getNumElements(), Item);
    auto *Ty = StructType::get(X.getContext(), Items);
    auto *New = new GlobalVariable(X, Ty, false, GV->getLinkage(),
                                   Constant::getNullValue(Ty), "", GV,
                                   GV->getThreadLocalMode(),
                                   GV->getAddressSpace());
    New->takeName(GV);
    GV->replaceAllUsesWith(New);
    GV->eraseFromParent();
  }
}

/// Reads K's md items and checks them against the plan.
static bool readMdItems(Module &X, const LdsPlan &Plan, const KernelPlan &KP,
                        SmallVectorImpl<MdItem> &Items, Failure &F) {
  F.Kernel = KP.Name;
  F.Fix = FixUpstream;
  const std::string MdName = SwLdsPrefix + KP.Name + ".md";
  GlobalVariable *Md = X.getNamedGlobal(MdName);
  if (!Md || !Md->hasInitializer()) {
    F.What = "the LDS lowering left no metadata global @" + MdName;
    return false;
  }
  auto *Ty = dyn_cast<StructType>(Md->getValueType());
  if (!Ty) {
    F.What = "@" + MdName + " is not a struct";
    return false;
  }
  for (Type *ItemTy : Ty->elements()) {
    auto *ST = dyn_cast<StructType>(ItemTy);
    if (!ST || ST->getNumElements() != 3 ||
        !all_of(ST->elements(), [](Type *T) { return T->isIntegerTy(32); })) {
      std::string S;
      raw_string_ostream OS(S);
      ItemTy->print(OS, /*IsForDebug=*/false, /*NoDetails=*/true);
      if (ST && !ST->isLiteral()) {
        OS << " = ";
        ST->print(OS);
      }
      F.What = "@" + MdName + " has items of type " + S +
               ", expected {i32, i32, i32}";
      return false;
    }
  }
  const unsigned Expected = KP.Items.size() + 1;
  if (Ty->getNumElements() != Expected) {
    F.What = "@" + MdName + " has " + std::to_string(Ty->getNumElements()) +
             " items, ldsan expected " + std::to_string(Expected);
    return false;
  }
  Constant *Init = Md->getInitializer();
  for (unsigned I = 0; I < Expected; ++I) {
    Constant *Item = Init->getAggregateElement(I);
    uint32_t Field[3];
    for (unsigned J = 0; J < 3; ++J) {
      auto *C = Item ? dyn_cast_or_null<ConstantInt>(
                           Item->getAggregateElement(J))
                     : nullptr;
      if (!C) {
        F.What = "@" + MdName + " item " + std::to_string(I) +
                 " is not a constant";
        return false;
      }
      Field[J] = C->getZExtValue();
    }
    Items.push_back({Field[0], Field[1], Field[2]});
  }

  if (Items[0].Size != 8 || Items[0].Offset != 0) {
    F.What = "@" + MdName + " item 0 (the block pointer slot) is at offset " +
             std::to_string(Items[0].Offset) + " with size " +
             std::to_string(Items[0].Size) + ", expected 0 and 8";
    return false;
  }
  for (unsigned I = 1; I < Expected; ++I) {
    const LdsVar &V = Plan.Vars[KP.Items[I - 1].Var];
    const MdItem &Md = Items[I];
    const MdItem &Prev = Items[I - 1];
    if (Md.Size != V.Size || Md.AlignedSize < Md.Size) {
      F.What = "@" + MdName + " item " + std::to_string(I) + " has size " +
               std::to_string(Md.Size) + " but ldsan mapped it to @" +
               V.Name + " of size " + std::to_string(V.Size);
      return false;
    }
    if (!V.Dynamic && Md.Offset != Prev.Offset + Prev.AlignedSize) {
      F.What = "@" + MdName + " item " + std::to_string(I) +
               " does not follow item " + std::to_string(I - 1);
      return false;
    }
  }

  GlobalVariable *Slot = X.getNamedGlobal(SwLdsPrefix + KP.Name);
  if (!Slot || Slot->getAddressSpace() != 3 ||
      Slot->getAlign().valueOrOne().value() != KP.MaxAlign) {
    F.What = "the LDS block pointer @" + std::string(SwLdsPrefix) + KP.Name +
             " is missing or its alignment differs from the largest variable "
             "alignment " + std::to_string(KP.MaxAlign);
    return false;
  }
  Function *K = X.getFunction(KP.Name);
  unsigned Mallocs = K ? callsTo(*K, MallocName).size() : 0;
  unsigned Frees = K ? callsTo(*K, FreeName).size() : 0;
  if (Mallocs != 1 || Frees < 1) {
    F.What = "the lowered kernel calls " + std::string(MallocName) + " " +
             std::to_string(Mallocs) + " times and " + FreeName + " " +
             std::to_string(Frees) + " times, expected once and at least once";
    return false;
  }
  return true;
}

/// Fails if the pass lowered a kernel the plan did not predict.
static bool checkNoSurpriseKernels(Module &X, const LdsPlan &Plan,
                                   Failure &F) {
  StringSet<> Predicted;
  for (const KernelPlan &KP : Plan.Kernels)
    Predicted.insert(KP.Name);
  for (GlobalVariable &GV : X.globals()) {
    StringRef Name = GV.getName();
    if (!Name.consume_front(SwLdsPrefix) || !Name.consume_back(".md"))
      continue;
    if (!Predicted.contains(Name)) {
      F = {"the LDS lowering created @" + GV.getName().str() +
               " for a kernel ldsan did not expect to use LDS",
           Name.str(), FixUpstream};
      return false;
    }
  }
  return true;
}

/// Routes K's __asan_malloc_impl/__asan_free_impl calls to the ldsan entry
/// points, passing the descriptor address instead of the (always 0) pc.
static void rewriteKernelCalls(Module &X, Function &K, GlobalVariable *Desc) {
  LLVMContext &Ctx = X.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  Constant *DescAddr = ConstantExpr::getPtrToInt(Desc, I64);
  struct Route {
    const char *From;
    const char *To;
    Type *Ret;
  } Routes[] = {{MallocName, LDSAN_KERNEL_ENTER_NAME, I64},
                {FreeName, LDSAN_KERNEL_EXIT_NAME, Type::getVoidTy(Ctx)}};
  for (const Route &R : Routes) {
    Function *Old = X.getFunction(R.From);
    if (!Old)
      continue;
    FunctionCallee New = X.getOrInsertFunction(
        R.To, FunctionType::get(R.Ret, {I64, I64}, false));
    // Upstream copies amdgpu-agpr-alloc onto its callees; keep doing so.
    if (auto *NewF = dyn_cast<Function>(New.getCallee()))
      if (Attribute A = Old->getFnAttribute("amdgpu-agpr-alloc"); A.isValid())
        NewF->addFnAttr(A);
    SmallVector<CallInst *, 4> Calls;
    for (User *U : Old->users())
      if (auto *CI = dyn_cast<CallInst>(U))
        if (CI->getFunction() == &K && CI->getCalledFunction() == Old)
          Calls.push_back(CI);
    for (CallInst *CI : Calls) {
      CallInst *NewCI = CallInst::Create(New, {CI->getArgOperand(0), DescAddr},
                                         "", CI->getIterator());
      NewCI->setDebugLoc(CI->getDebugLoc());
      NewCI->takeName(CI);
      CI->replaceAllUsesWith(NewCI);
      Value *PC = CI->getArgOperand(1);
      CI->eraseFromParent();
      RecursivelyDeleteTriviallyDeadInstructions(PC);
    }
    if (Old->use_empty() && Old->isDeclaration())
      Old->eraseFromParent();
  }
}

/// All extern __shared__ arrays of a kernel share one address on hardware
/// (the start of its dynamic LDS), but upstream amdgpu-sw-lower-lds gives each
/// dynamic variable its own copy, the k-th at static size + k * alignTo(dynamic
/// size, alignment): a program writing through one and reading through another
/// would read the wrong memory, and everything after the first copy lies past
/// the dynamic block ldsan bounds. (No upstream LLVM issue found for this as of
/// LLVM 22; #84742 states the intended rule, "all zero-sized LDS variables
/// alias".) So before lowering, every use of another dynamic variable of the
/// module becomes a use of the first one (Plan order), aligned as the most
/// aligned of them: they all mean "the dynamic LDS" in every kernel, and the
/// lowering then sees one dynamic variable. The descriptor still gets one
/// record per dynamic variable the kernel reached, all at the same offset, so
/// reports and layouts name them (an access is attributed to the first record).
static void mergeDynamicLds(Module &X, const LdsPlan &Plan) {
  GlobalVariable *First = nullptr;
  SmallVector<GlobalVariable *, 4> Others;
  for (const LdsVar &V : Plan.Vars) {
    if (!V.Dynamic)
      continue;
    GlobalVariable *GV = X.getNamedGlobal(V.Name);
    if (!GV)
      continue;
    if (!First)
      First = GV;
    else
      Others.push_back(GV);
  }
  if (!First || Others.empty())
    return;
  const DataLayout &DL = X.getDataLayout();
  Align A = First->getPointerAlignment(DL);
  for (GlobalVariable *GV : Others) {
    A = std::max(A, GV->getPointerAlignment(DL));
    GV->replaceAllUsesWith(First);
    GV->eraseFromParent();
  }
  First->setAlignment(A);
}

/// Maps the items of Orig (the plan before mergeDynamicLds) to the md items
/// of the kernel as lowered (planned as Lowered): static variables to their
/// own item, every dynamic variable to the one merged dynamic item.
static bool expandMdItems(const LdsPlan &Orig, const KernelPlan &OrigKP,
                          const LdsPlan &Lowered, const KernelPlan &LoweredKP,
                          ArrayRef<MdItem> Md, SmallVectorImpl<MdItem> &Out,
                          Failure &F) {
  Out.assign(1, Md[0]);
  for (const LdsItem &It : OrigKP.Items) {
    const LdsVar &V = Orig.Vars[It.Var];
    int Found = -1;
    for (unsigned J = 0; J < LoweredKP.Items.size() && Found < 0; ++J) {
      const LdsVar &L = Lowered.Vars[LoweredKP.Items[J].Var];
      if (V.Dynamic ? L.Dynamic : L.Name == V.Name)
        Found = J;
    }
    if (Found < 0) {
      F = {"after merging the dynamic LDS variables, @" + V.Name +
               " has no item in the LDS lowering's metadata",
           OrigKP.Name, FixUpstream};
      return false;
    }
    Out.push_back(Md[Found + 1]);
  }
  return true;
}

/// The whole transformation on X; Plan is X's plan before mergeDynamicLds.
static bool transform(Module &X, const LdsPlan &Plan, PassBuilder &PB,
                      std::unique_ptr<Module> RT, unsigned Checks, bool LdsOnly,
                      Failure &F) {
  mergeDynamicLds(X, Plan);
  undoFlatToLdsCasts(X, /*Asan=*/!LdsOnly);
  markWaveOrderingFences(X);
  if (Checks)
    addLdsAccessChecks(X, Checks);
  if (LdsOnly)
    addFlatLdsBoundsChecks(X);
  LdsPlan Lowered = planLdsLowering(X);
  bool Same = Lowered.Problem.empty() &&
              Lowered.Kernels.size() == Plan.Kernels.size();
  for (unsigned I = 0; Same && I < Plan.Kernels.size(); ++I)
    Same = Lowered.Kernels[I].Name == Plan.Kernels[I].Name;
  if (!Same) {
    F = {"merging the dynamic LDS variables changed which kernels get lowered",
         "", "report this ldsan bug"};
    return false;
  }

  if (!runUpstreamLowering(X, PB, F))
    return false;
  std::string Why;
  if (LdsOnly && !useOwnShadow(X, Why)) {
    F = {Why, "", FixUpstream};
    return false;
  }
  if (TestUnexpectedMd)
    reshapeMdForTest(X);
  if (!checkNoSurpriseKernels(X, Lowered, F))
    return false;

  std::vector<SmallVector<MdItem, 8>> Items(Plan.Kernels.size());
  for (unsigned I = 0; I < Plan.Kernels.size(); ++I) {
    SmallVector<MdItem, 8> Md;
    if (!readMdItems(X, Lowered, Lowered.Kernels[I], Md, F) ||
        !expandMdItems(Plan, Plan.Kernels[I], Lowered, Lowered.Kernels[I], Md,
                       Items[I], F))
      return false;
  }

  for (unsigned I = 0; I < Plan.Kernels.size(); ++I) {
    KernelPlan KP = Plan.Kernels[I];
    KP.MaxAlign = Lowered.Kernels[I].MaxAlign;
    Function *K = X.getFunction(KP.Name);
    uint32_t Flags = 0;
    if (KP.NumDynamic)
      Flags |= LDSAN_KERNEL_HAS_DYNAMIC;
    if (KP.AnyIndirect || K->getMetadata("llvm.amdgcn.lds.kernel.id"))
      Flags |= LDSAN_KERNEL_INDIRECT;
    if (Checks & LDSAN_LDS_CHECK_RACES)
      Flags |= LDSAN_KERNEL_CHECK_RACES;
    if (Checks & LDSAN_LDS_CHECK_UNINIT)
      Flags |= LDSAN_KERNEL_CHECK_UNINIT;
    std::vector<uint8_t> Blob = buildDescriptor(Plan, KP, Items[I], Flags);
    GlobalVariable *Desc = emitDescriptor(X, KP.Name, Blob);
    rewriteKernelCalls(X, *K, Desc);
    if (KP.NumDynamic)
      useDispatchDynamicLdsSize(*K);
    if (!guardKernelBlock(*K, Why) || !shareBlockShadow(*K, hasShadowImage(Blob), Why) ||
        (Checks && !addLdsChecksPrologue(*K, Checks, Why))) {
      F = {Why, KP.Name, FixUpstream};
      return false;
    }
  }

  sizeByteReports(X);

  std::string Reason;
  if (!linkRuntime(X, std::move(RT), Reason)) {
    F = {Reason, "", "check that the runtime was built for this LLVM"};
    return false;
  }
  if (!inlineBlockCalls(X, PB, Reason) ||
      (LdsOnly && !inlineOwnShadowOffset(X, Reason))) {
    F = {Reason, "", "check that the runtime was built for this LLVM"};
    return false;
  }

  for (Function &Fn : X)
    if (!Fn.isDeclaration())
      for (const char *A : InputAttrs)
        Fn.removeFnAttr(A);
  X.addModuleFlag(Module::Max, InstrumentedFlag, 1);
  return true;
}

/// If M was already lowered by amdgpu-sw-lower-lds, the kernel it was lowered
/// for (or the table name); else empty.
static std::string alreadyLowered(const Module &M) {
  for (const GlobalVariable &GV : M.globals()) {
    StringRef Name = GV.getName();
    if (Name.consume_front(SwLdsPrefix)) {
      Name.consume_back(".md");
      return Name.str();
    }
  }
  return "";
}

/// instrumentModule on a module ready for the upstream lowering (sanitized,
/// or prepared for the LDS-only mode).
static bool instrumentPrepared(Module &M, PassBuilder &PB, bool LdsOnly) {

  if (std::string K = alreadyLowered(M); !K.empty()) {
    reportError(M, "the module's LDS was already lowered by "
                   "amdgpu-sw-lower-lds, so the variable names are gone, in "
                   "kernel " + K +
                   "; run the ldsan plugin before LDS lowering (use ldsan-cc, "
                   "or -fpass-plugin with clang)");
    return false;
  }

  const std::string Path = runtimePath(LdsOnly);
  std::string Reason;
  std::unique_ptr<Module> RT = loadRuntime(Path, M.getContext(), Reason);
  if (!RT) {
    reportError(M, "cannot read the ldsan device runtime '" + Path +
                       "': " + Reason + "; run 'make' in the ldsan tree or set " +
                       (LdsOnly ? "LDSAN_RUNTIME_LDS" : "LDSAN_RUNTIME"));
    return false;
  }

  LdsPlan Plan = planLdsLowering(M);
  // Without ASan there is nothing else to check: a module whose kernels use
  // no LDS keeps its code, and gets no runtime.
  if (LdsOnly && Plan.Problem.empty() && Plan.Kernels.empty())
    return false;
  if (!Plan.Problem.empty()) {
    reportError(M, Plan.Problem + "; ldsan cannot instrument this module");
    return false;
  }
  unsigned Checks = 0;
  if (!ldsChecksRequested(Checks, Reason)) {
    reportError(M, Reason + "; use -fsanitize-lds=races, =uninit or =races,uninit");
    return false;
  }


  // Trial run on a clone: M stays untouched if anything is unexpected.
  {
    SmallPtrSet<StructType *, 32> Known;
    for (StructType *ST : M.getIdentifiedStructTypes())
      Known.insert(ST);
    std::unique_ptr<Module> Clone = CloneModule(M);
    Failure F;
    if (!transform(*Clone, Plan, PB, CloneModule(*RT), Checks, LdsOnly, F)) {
      reportError(M, F.message());
      return false;
    }
    // Free the names the trial gave its new types, so M's get the same ones.
    for (StructType *ST : Clone->getIdentifiedStructTypes())
      if (!Known.contains(ST) && ST->getName().starts_with(SwLdsPrefix))
        ST->setName("");
  }

  Failure F;
  if (!transform(M, Plan, PB, std::move(RT), Checks, LdsOnly, F))
    reportError(M, F.message() + " (the module is partly instrumented)");
  return true;
}

bool ldsan::instrumentModule(Module &M, PassBuilder &PB) {
  if (!shouldInstrument(M))
    return false;
  if (isSanitized(M))
    return instrumentPrepared(M, PB, /*LdsOnly=*/false);
  LdsOnlyMarks Marks;
  prepareLdsOnly(M, Marks);
  if (instrumentPrepared(M, PB, /*LdsOnly=*/true))
    return true;
  undoLdsOnly(M, Marks);
  return false;
}

PreservedAnalyses LdsanInstrumentPass::run(Module &M,
                                           ModuleAnalysisManager &) {
  return instrumentModule(M, PB) ? PreservedAnalyses::none()
                                 : PreservedAnalyses::all();
}

PreservedAnalyses LdsOnlyEntryPass::run(Module &M, ModuleAnalysisManager &) {
  for (const Function &F : M)
    if (F.hasFnAttribute(Attribute::SanitizeAddress))
      return PreservedAnalyses::all(); // ASan runs next; its hook instruments
  return instrumentModule(M, PB) ? PreservedAnalyses::none()
                                 : PreservedAnalyses::all();
}
