// Device code the emulator cannot run fails the --emulate build naming the
// user's own call and line, not an intrinsic inside the device library:
// a hostcall function of the device library (its s.sendmsg), at -O2 (the
// library's helpers are unnamed there) and -O0; and a printf argument a GPU
// build rejects too (HIP 5.2's blockDim.x is a struct: "cannot compile this
// non-scalar arg to printf yet"), which would otherwise shift the arguments.
// RUN: cd %repo && not %ldsan-cc --emulate -O2 -DHOSTCALL -c test/emulator/unsupported_device_calls.hip -o %t.o 2>&1 | FileCheck %s --check-prefix=HOSTCALL
// RUN: cd %repo && not %ldsan-cc --emulate -O0 -DHOSTCALL -c test/emulator/unsupported_device_calls.hip -o %t.o 2>&1 | FileCheck %s --check-prefix=HOSTCALL
// RUN: cd %repo && not %ldsan-cc --emulate -O2 -DSTRUCT_ARG -c test/emulator/unsupported_device_calls.hip -o %t.o 2>&1 | FileCheck %s --check-prefix=STRUCT
// HOSTCALL-NOT: unnamed
// HOSTCALL: error: test/emulator/unsupported_device_calls.hip:[[@LINE+14]]: device-library function '__ockl_fprintf_{{stderr_begin|append_string_n}}' is not supported by the CPU emulator (it uses llvm.amdgcn.s.sendmsg, which only a GPU can run) (in function 'report(int*, int)')
// HOSTCALL-NOT: error: {{.*}}unsupported_device_calls.hip:{{.*}}error:
// HOSTCALL: the device code of test/emulator/unsupported_device_calls.hip cannot run on the CPU emulator
// STRUCT: error: test/emulator/unsupported_device_calls.hip:[[@LINE+14]]: printf argument 1 after the format is not a scalar (a GPU build rejects it too: "cannot compile this non-scalar arg to printf yet"); pass a number, pointer or string, e.g. (unsigned)blockDim.x (in function 'report(int*, int)')
// STRUCT: the device code of test/emulator/unsupported_device_calls.hip cannot run on the CPU emulator
#include <hip/hip_runtime.h>

__global__ void report(int *out, int n) {
  int i = threadIdx.x;
  out[i] = i;
  if (i != n) return;
#ifdef HOSTCALL
  // The device library's own stderr printing (what HIP's assert used before
  // the emulator took it over): a hostcall to the host.
  __ockl_fprintf_append_string_n(__ockl_fprintf_stderr_begin(), "bad\n", 5, 1);
#endif
#ifdef STRUCT_ARG
  printf("block of %u items\n", blockDim.x);
#endif
}
