; A module whose LDS some earlier amdgpu-sw-lower-lds already lowered (here
; with a malformed md global) cannot be described: one error, module unchanged.
; RUN: LDSAN_RUNTIME=%S/stub-rt.ll not opt -passes=ldsan-instrument %s -o %t.bc 2>&1 \
; RUN:   | FileCheck %s --implicit-check-not=ldsan
; RUN: LDSAN_RUNTIME=%S/stub-rt.ll opt -passes=ldsan-instrument -ldsan-errors-as-warnings %s -o %t.bc 2>/dev/null
; RUN: opt-noplugin -passes=verify %s -o %t.orig.bc
; RUN: cmp %t.orig.bc %t.bc
; CHECK: error: ldsan: error: the module's LDS was already lowered by amdgpu-sw-lower-lds, so the variable names are gone, in kernel k; run the ldsan plugin before LDS lowering (use ldsan-cc, or -fpass-plugin with clang)

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@v = internal addrspace(3) global [8 x i32] undef, align 16
@llvm.amdgcn.sw.lds.k.md = internal addrspace(1) global { i32, i32 } { i32 0, i32 8 }

define amdgpu_kernel void @k(i32 %i) #0 {
  %p = getelementptr [8 x i32], ptr addrspace(3) @v, i32 0, i32 %i
  store i32 1, ptr addrspace(3) %p, align 4
  %m = load i32, ptr addrspace(1) @llvm.amdgcn.sw.lds.k.md, align 4
  ret void
}

attributes #0 = { sanitize_address "target-cpu"="gfx90a" }

!llvm.module.flags = !{!0}
!0 = !{i32 4, !"nosanitize_address", i32 1}
