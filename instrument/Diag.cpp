//===- Diag.cpp - ldsan plugin diagnostics --------------------------------===//
#include "Diag.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

// opt exits on the first error diagnostic without writing its output; tests
// that check the module is left unchanged turn errors into warnings.
static cl::opt<bool> ErrorsAsWarnings(
    "ldsan-errors-as-warnings", cl::Hidden, cl::init(false),
    cl::desc("ldsan tests only: report ldsan errors with warning severity"));

namespace {

/// A plugin diagnostic whose text is printed verbatim.
class LdsanDiagnostic : public DiagnosticInfo {
  const Twine &Msg;

public:
  LdsanDiagnostic(const Twine &Msg, DiagnosticSeverity Severity)
      : DiagnosticInfo(kind(), Severity), Msg(Msg) {}

  static int kind() {
    static const int Kind = getNextAvailablePluginDiagnosticKind();
    return Kind;
  }

  void print(DiagnosticPrinter &DP) const override { DP << Msg; }
};

} // namespace

void ldsan::reportError(Module &M, const Twine &Msg) {
  M.getContext().diagnose(LdsanDiagnostic(
      "ldsan: error: " + Msg, ErrorsAsWarnings ? DS_Warning : DS_Error));
}

void ldsan::reportWarning(Module &M, const Twine &Msg) {
  M.getContext().diagnose(
      LdsanDiagnostic("ldsan: warning: " + Msg, DS_Warning));
}
