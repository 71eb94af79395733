; An --emulate device compile ($LDSAN_EMULATE): at the pipeline's start the
; plugin gives HIP's __assert_fail (weak, as the header defines it) one call
; of __ldsan_emu_assert_fail with its arguments, before the optimizer can fold
; them into a specialized copy; without $LDSAN_EMULATE the body stays.
; RUN: env LDSAN_EMULATE=1 opt -passes='default<O2>' -S %s | FileCheck %s --check-prefix=EMU
; RUN: env LDSAN_EMULATE=1 opt -passes='default<O0>' -S %s | FileCheck %s --check-prefix=EMU
; RUN: opt -passes='default<O2>' -S %s | FileCheck %s --check-prefix=GPU
; EMU-LABEL: define weak void @__assert_fail(ptr %assertion, ptr %file, i32 %line, ptr %function)
; EMU-NEXT: entry:
; EMU-NEXT: call void @__ldsan_emu_assert_fail(ptr %assertion, ptr %file, i32 %line, ptr %function)
; EMU-NEXT: unreachable
; EMU: declare void @__ldsan_emu_assert_fail(ptr, ptr, i32, ptr){{.*}}#[[ATTR:[0-9]+]]
; EMU: attributes #[[ATTR]] = { noreturn nounwind{{.*}} }
; GPU-LABEL: define weak void @__assert_fail(
; GPU: call void @llvm.trap()
; GPU-NOT: __ldsan_emu_assert_fail
target triple = "amdgcn-amd-amdhsa"

@msg = private addrspace(4) constant [3 x i8] c"a\0A\00"

declare i64 @__ockl_fprintf_stderr_begin()
declare i64 @__ockl_fprintf_append_string_n(i64, ptr, i64, i32)

define weak void @__assert_fail(ptr %assertion, ptr %file, i32 %line, ptr %function) noinline {
  %m = call i64 @__ockl_fprintf_stderr_begin()
  %s = call i64 @__ockl_fprintf_append_string_n(i64 %m, ptr %assertion, i64 2, i32 1)
  call void @llvm.trap()
  unreachable
}

define amdgpu_kernel void @k(i32 %n) {
  %bad = icmp sgt i32 %n, 4
  br i1 %bad, label %fail, label %ok
fail:
  call void @__assert_fail(ptr addrspacecast (ptr addrspace(4) @msg to ptr), ptr null, i32 7, ptr null)
  unreachable
ok:
  ret void
}
