; The after-pass hook: when AddressSanitizerPass runs (here in opt; in clang's
; device cc1 the same way), ldsan instruments the module right after it.
; The module comes from stdin: its ModuleID and source_filename are then
; "<stdin>", not a path that may contain "ldsan" (PLAIN-NOT below).
; RUN: LDSAN_RUNTIME=%S/stub-rt.ll opt -passes=asan -S < %s | FileCheck %s
; RUN: opt-noplugin -passes=asan -S < %s | FileCheck %s --check-prefix=PLAIN

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@tile = internal addrspace(3) global [64 x i32] undef, align 16

define amdgpu_kernel void @k(i32 %i) #0 {
  %p = getelementptr [64 x i32], ptr addrspace(3) @tile, i32 0, i32 %i
  store i32 1, ptr addrspace(3) %p, align 4
  ret void
}

attributes #0 = { sanitize_address "target-cpu"="gfx90a" }

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"amdhsa_code_object_version", i32 500}

; CHECK: @__ldsan_kdesc.k = internal addrspace(1) constant
; CHECK: call i64 @stub_enter(i64 352, i64 ptrtoint (ptr addrspace(1) @__ldsan_kdesc.k to i64))
; CHECK: define internal void @stub_exit_wave(
; CHECK: !"nosanitize_address"
; CHECK: !"ldsan.instrumented"

; PLAIN-NOT: ldsan
; PLAIN: addrspace(3) global [64 x i32]
; PLAIN-NOT: ldsan
