//===- Runtime.cpp - find, load and link the ldsan device runtime ---------===//
//
// Linkage choices, after linking (only what the module needs):
//  - every function that came from the runtime becomes internal: nothing
//    outside the code object calls it (the host never does), and internal
//    lets the backend infer
//    precise amdgpu-* attributes and drop unused ones;
//  - the device-state globals (LDSAN_DEVICE_STATE_SYMBOL, the built-in
//    channel and pool, and the LDS-only runtime's shadow of that pool) are
//    always linked and stay external with protected
//    visibility, so the host finds them by symbol in the code object. They are
//    weak_odr: with -fgpu-rdc ldsan-cc has the device link instrument the
//    linked module (Plugin.cpp), so the runtime comes in once; but code
//    objects instrumented per translation unit (another driver, or objects of
//    an older ldsan) may meet there, and weak_odr keeps one definition per code
//    object instead of failing on duplicates. It is what a whole program needs
//    too: one definition, exported (the HSA loader lists a weak defined
//    symbol as any other);
//  - any other runtime global keeps the linkage the runtime gave it.
//
// After linking, every function that cannot recurse is marked norecurse. The
// runtime calls llvm.trap, which (unlike most intrinsics) is not nocallback,
// so LLVM does not infer it for the runtime nor for its callers (nor for
// ASan's module constructor); without it the AMDGPU backend takes every
// sanitized kernel as possibly recursive and sets .amdhsa_uses_dynamic_stack,
// and the HIP runtime then gives each dispatch its default stack in scratch
// (1 KiB per lane) although the kernel's fixed stack is 0.
//
//===----------------------------------------------------------------------===//
#include "Runtime.h"

#include "ldsan/abi.h"
#include "ldsan/entry_points.def"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdlib>
#include <dlfcn.h>

using namespace llvm;

static const char *const StateGlobals[] = {
    LDSAN_DEVICE_STATE_SYMBOL, "__ldsan_builtin_channel",
    "__ldsan_builtin_pool", "__ldsan_builtin_pool_shadow"};

std::string ldsan::runtimePath(bool LdsOnly) {
  const char *Var = LdsOnly ? "LDSAN_RUNTIME_LDS" : "LDSAN_RUNTIME";
  const char *File = LdsOnly ? "ldsan-rt-lds.bc" : "ldsan-rt.bc";
  if (const char *Env = std::getenv(Var); Env && *Env)
    return Env;
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&ldsan::runtimePath), &Info) ||
      !Info.dli_fname)
    return File;
  SmallString<256> Path(sys::path::parent_path(Info.dli_fname));
  sys::path::append(Path, File);
  return std::string(Path);
}

std::unique_ptr<Module> ldsan::loadRuntime(StringRef Path, LLVMContext &Ctx,
                                           std::string &Reason) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf) {
    Reason = Buf.getError().message();
    return nullptr;
  }
  SMDiagnostic Diag;
  std::unique_ptr<Module> RT = parseIR((*Buf)->getMemBufferRef(), Diag, Ctx);
  if (!RT) {
    Reason = "not LLVM IR or bitcode: " + Diag.getMessage().str();
    return nullptr;
  }
  if (!RT->getTargetTriple().isAMDGCN()) {
    Reason = "not amdgcn code (target triple '" +
             RT->getTargetTriple().str() + "')";
    return nullptr;
  }
  return RT;
}

/// The function whose target-cpu/target-features the runtime gets: the first
/// kernel that has them, else any definition that has them.
static const Function *targetReference(const Module &M) {
  const Function *Any = nullptr;
  for (const Function &F : M) {
    if (F.isDeclaration() || !F.hasFnAttribute("target-cpu"))
      continue;
    if (F.getCallingConv() == CallingConv::AMDGPU_KERNEL)
      return &F;
    if (!Any)
      Any = &F;
  }
  return Any;
}

void ldsan::markRuntimeCode(Instruction &I) {
  auto *Call = dyn_cast<CallBase>(&I);
  if (!I.mayReadOrWriteMemory() && !isa<FenceInst>(I) && !(Call && Call->getIntrinsicID()))
    return;
  if (Call && !Call->getIntrinsicID() && !isa<MemIntrinsic>(I))
    return; // calls of functions: their bodies are marked where they are defined
  I.setMetadata(LDSAN_RUNTIME_MD, MDNode::get(I.getContext(), {}));
}

/// Whether the call I makes cannot come back into a function: an intrinsic
/// (none calls a function of the module), inline asm (calls nothing), or a
/// call of a function already known not to recurse.
static bool callCannotRecurse(const CallBase &Call) {
  if (Call.isInlineAsm())
    return true;
  const Function *Callee = Call.getCalledFunction();
  return Callee && (Callee->isIntrinsic() || Callee->doesNotRecurse());
}

/// Marks norecurse each function of M whose every call cannot recurse,
/// repeating until nothing changes: a function calling itself, or in a cycle
/// of calls, is never marked, nor is one making an indirect call.
static void markNoRecurse(Module &M) {
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Function &F : M) {
      if (F.isDeclaration() || F.doesNotRecurse())
        continue;
      bool Safe = true;
      for (Instruction &I : instructions(F))
        if (auto *Call = dyn_cast<CallBase>(&I))
          if (Call->getCalledFunction() == &F || !callCannotRecurse(*Call)) {
            Safe = false;
            break;
          }
      if (Safe) {
        F.setDoesNotRecurse();
        Changed = true;
      }
    }
  }
}

bool ldsan::linkRuntime(Module &M, std::unique_ptr<Module> RT,
                        std::string &Reason) {
  // The runtime's module flags, used lists and target strings say nothing
  // about this code object; drop them so linking neither conflicts on flags
  // nor pulls in everything the runtime marked used.
  if (NamedMDNode *Flags = RT->getModuleFlagsMetadata())
    RT->eraseNamedMetadata(Flags);
  for (const char *Name : {"llvm.used", "llvm.compiler.used"})
    if (GlobalVariable *GV = RT->getNamedGlobal(Name))
      GV->eraseFromParent();
  RT->setTargetTriple(M.getTargetTriple());
  RT->setDataLayout(M.getDataLayout());

  // Declaring the state globals makes LinkOnlyNeeded bring them in.
  for (const char *Name : StateGlobals) {
    GlobalVariable *Src = RT->getNamedGlobal(Name);
    if (!Src || Src->isDeclaration() || M.getNamedValue(Name))
      continue;
    new GlobalVariable(M, Src->getValueType(), Src->isConstant(),
                       GlobalValue::ExternalLinkage, nullptr, Name, nullptr,
                       GlobalValue::NotThreadLocal, Src->getAddressSpace());
  }

  SmallPtrSet<const Function *, 32> Defined;
  for (const Function &F : M)
    if (!F.isDeclaration())
      Defined.insert(&F);
  const Function *Ref = targetReference(M);
  Attribute Cpu, Features;
  if (Ref) {
    Cpu = Ref->getFnAttribute("target-cpu");
    Features = Ref->getFnAttribute("target-features");
  }

  if (Linker::linkModules(M, std::move(RT), Linker::LinkOnlyNeeded)) {
    Reason = "linking the ldsan device runtime failed";
    return false;
  }

  for (Function &F : M) {
    if (F.isDeclaration() || Defined.contains(&F))
      continue;
    for (Instruction &I : instructions(F))
      markRuntimeCode(I);
    F.removeFnAttr("target-cpu");
    F.removeFnAttr("target-features");
    if (Cpu.isValid())
      F.addFnAttr(Cpu);
    if (Features.isValid())
      F.addFnAttr(Features);
    if (!F.hasLocalLinkage()) {
      F.setVisibility(GlobalValue::DefaultVisibility);
      F.setLinkage(GlobalValue::InternalLinkage);
      F.setComdat(nullptr);
    }
  }
  markNoRecurse(M);
  for (const char *Name : StateGlobals)
    if (GlobalVariable *GV = M.getNamedGlobal(Name))
      if (!GV->isDeclaration() && !GV->hasLocalLinkage()) {
        GV->setLinkage(GlobalValue::WeakODRLinkage);
        GV->setVisibility(GlobalValue::ProtectedVisibility);
        GV->setDSOLocal(true);
      }
  return true;
}
