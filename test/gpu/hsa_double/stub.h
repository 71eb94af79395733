// hsa_double/stub.h — stubs for API-table entries the double does not
// implement: each prints "hsa_double: <name> is not implemented by the test
// double" once per runtime instance (hsa_init .. hsa_shut_down) and returns
// HSA_STATUS_ERROR (0 for other types, nothing for void). HSAD_STUB gives the entry its exact type: a captureless generic
// lambda converts to any function-pointer type.
#pragma once

#include <atomic>
#include <type_traits>

#include "internal.h"

namespace hsad {

template <class F> struct Fn;
template <class R, class... A> struct Fn<R(A...)> { using Ret = R; };

template <class R> R stub_value() {
  if constexpr (std::is_void_v<R>) return;
  else if constexpr (std::is_same_v<R, hsa_status_t>) return HSA_STATUS_ERROR;
  else return R{};
}

void stub_say(const char *name, std::atomic<bool> *said);  // table.cpp: prints unless `said`

// A stub of type hsa_status_t() for an entry Debian's ROCm 5.2 headers do not
// declare (newer AmdExtTable entries, PcSamplingExtTable): it prints `name`
// once. The same name always gets the same function.
void *named_stub(const char *name);

}  // namespace hsad

#define HSAD_STUB(field, name)                                                \
  field = [](auto...) {                                                       \
    static std::atomic<bool> said{false};                                     \
    ::hsad::stub_say(#name, &said);                                           \
    return ::hsad::stub_value<::hsad::Fn<decltype(::name)>::Ret>();           \
  }
