// ldsan-emu-retarget: writes the x86-64 object. Not LLVMTargetMachineEmitToFile:
// that replaces the module's data layout with the target's, which drops the
// device address spaces the retargeted module declares (p3:32:32 and the
// rest); the optimizer laid out arrays of LDS pointers with 4-byte elements
// and code generation would then store and index them as 8-byte ones.
// Code generation here runs on the module's own layout.
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <cstdlib>
#include <cstring>
#include <string>

extern "C" {
#include "retarget.h"
}

using namespace llvm;

namespace llvm {
// The C API's handle types are these classes (llvm-c/TargetMachine.h).
inline TargetMachine *unwrapTM(LLVMTargetMachineRef P) { return reinterpret_cast<TargetMachine *>(P); }
} // namespace llvm

extern "C" int rt_emit_object(LLVMTargetMachineRef tm, LLVMModuleRef mod, const char *path, char **msg) {
  std::error_code ec;
  raw_fd_ostream out(path, ec, sys::fs::OF_None);
  if (ec) {
    *msg = strdup(ec.message().c_str());
    return 1;
  }
  legacy::PassManager pm;
  if (unwrapTM(tm)->addPassesToEmitFile(pm, out, nullptr, CodeGenFileType::ObjectFile)) {
    *msg = strdup("the x86-64 target cannot emit an object file");
    return 1;
  }
  pm.run(*unwrap(mod));
  out.flush();
  return 0;
}
