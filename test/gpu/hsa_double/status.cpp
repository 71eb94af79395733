// hsa_double/status.cpp — hsa_status_string: "NAME: description" for every
// status of hsa.h and hsa_ext_amd.h (the descriptions paraphrase the headers).
// Like ROCr it needs no initialized runtime; an unknown status is
// HSA_STATUS_ERROR_INVALID_ARGUMENT.
#include "impl.h"

namespace hsad {
namespace {

struct StatusText {
  uint32_t status;
  const char *text;
};

#define S(name, what) {uint32_t(name), #name ": " what}
const StatusText kStatus[] = {
    S(HSA_STATUS_SUCCESS, "The function has been executed successfully."),
    S(HSA_STATUS_INFO_BREAK, "A traversal over a list of elements has been interrupted by the application."),
    S(HSA_STATUS_ERROR, "A generic error has occurred."),
    S(HSA_STATUS_ERROR_INVALID_ARGUMENT, "One of the actual arguments does not meet a precondition."),
    S(HSA_STATUS_ERROR_INVALID_QUEUE_CREATION, "The requested queue creation is not valid."),
    S(HSA_STATUS_ERROR_INVALID_ALLOCATION, "The requested allocation is not valid."),
    S(HSA_STATUS_ERROR_INVALID_AGENT, "The agent is invalid."),
    S(HSA_STATUS_ERROR_INVALID_REGION, "The memory region is invalid."),
    S(HSA_STATUS_ERROR_INVALID_SIGNAL, "The signal is invalid."),
    S(HSA_STATUS_ERROR_INVALID_QUEUE, "The queue is invalid."),
    S(HSA_STATUS_ERROR_OUT_OF_RESOURCES, "The HSA runtime failed to allocate the necessary resources."),
    S(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT, "The AQL packet is malformed."),
    S(HSA_STATUS_ERROR_RESOURCE_FREE, "An error has been detected while releasing a resource."),
    S(HSA_STATUS_ERROR_NOT_INITIALIZED, "An API other than hsa_init has been invoked while the runtime is not initialized."),
    S(HSA_STATUS_ERROR_REFCOUNT_OVERFLOW, "The maximum reference count for the object has been reached."),
    S(HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS, "The arguments passed to a function are not compatible."),
    S(HSA_STATUS_ERROR_INVALID_INDEX, "The index is invalid."),
    S(HSA_STATUS_ERROR_INVALID_ISA, "The instruction set architecture is invalid."),
    S(HSA_STATUS_ERROR_INVALID_ISA_NAME, "The instruction set architecture name is invalid."),
    S(HSA_STATUS_ERROR_INVALID_CODE_OBJECT, "The code object is invalid."),
    S(HSA_STATUS_ERROR_INVALID_EXECUTABLE, "The executable is invalid."),
    S(HSA_STATUS_ERROR_FROZEN_EXECUTABLE, "The executable is frozen."),
    S(HSA_STATUS_ERROR_INVALID_SYMBOL_NAME, "There is no symbol with the given name."),
    S(HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED, "The variable is already defined."),
    S(HSA_STATUS_ERROR_VARIABLE_UNDEFINED, "The variable is undefined."),
    S(HSA_STATUS_ERROR_EXCEPTION, "An HSAIL operation resulted in a hardware exception."),
    S(HSA_STATUS_ERROR_INVALID_CODE_SYMBOL, "The code object symbol is invalid."),
    S(HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL, "The executable symbol is invalid."),
    S(HSA_STATUS_ERROR_INVALID_FILE, "The file descriptor is invalid."),
    S(HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER, "The code object reader is invalid."),
    S(HSA_STATUS_ERROR_INVALID_CACHE, "The cache is invalid."),
    S(HSA_STATUS_ERROR_INVALID_WAVEFRONT, "The wavefront is invalid."),
    S(HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP, "The signal group is invalid."),
    S(HSA_STATUS_ERROR_INVALID_RUNTIME_STATE, "The HSA runtime is not in the configuration state."),
    S(HSA_STATUS_ERROR_FATAL, "The queue received an error that may require process termination."),
    S(HSA_STATUS_ERROR_INVALID_MEMORY_POOL, "The memory pool is invalid."),
    S(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION, "Agent accessed memory beyond the maximum legal address."),
    S(HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION, "Agent executed an invalid shader instruction."),
    S(HSA_STATUS_ERROR_MEMORY_FAULT, "Agent attempted to access an inaccessible address."),
    S(HSA_STATUS_CU_MASK_REDUCED, "The CU mask was set but enables CUs disabled for the process."),
};
#undef S

}  // namespace

hsa_status_t status_string(hsa_status_t status, const char **out) {
  if (!out) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (const StatusText &s : kStatus)
    if (s.status == uint32_t(status)) {
      *out = s.text;
      return HSA_STATUS_SUCCESS;
    }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

}  // namespace hsad
