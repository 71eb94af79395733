; -fgpu-rdc: an externally callable device function using LDS that no kernel
; of this module reaches cannot be instrumented here (a kernel of another
; translation unit may call it, and the device link's backend would lower the
; variable without ldsan): one warning per such variable. Functions that cannot
; be called from outside (internal, linkonce_odr) and variables a kernel
; reaches get none; the module is still instrumented.
; RUN: LDSAN_RUNTIME=%S/stub-rt.ll opt -passes=ldsan-instrument %s -S -o %t.ll 2>%t.err
; RUN: FileCheck %s --check-prefix=WARN < %t.err
; RUN: FileCheck %s --check-prefix=IR < %t.ll

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@_ZZ6stage2iE7scratch = internal addrspace(3) global [64 x float] undef, align 4
@_ZZ5localiE3tmp = internal addrspace(3) global [4 x i32] undef, align 4
@_ZZ6inlineiE3tmp = internal addrspace(3) global [4 x i32] undef, align 4
@_ZZ2kkiE4tile = internal addrspace(3) global [8 x i32] undef, align 4

define hidden float @_Z6stage2i(i32 %i) #1 {
  %p = getelementptr [64 x float], ptr addrspace(3) @_ZZ6stage2iE7scratch, i32 0, i32 %i
  store float 1.0, ptr addrspace(3) %p, align 4
  ret float 0.0
}

define internal void @_Z5locali(i32 %i) #1 {
  %p = getelementptr [4 x i32], ptr addrspace(3) @_ZZ5localiE3tmp, i32 0, i32 %i
  store i32 1, ptr addrspace(3) %p, align 4
  ret void
}

define linkonce_odr hidden void @_Z6inlinei(i32 %i) #1 {
  %p = getelementptr [4 x i32], ptr addrspace(3) @_ZZ6inlineiE3tmp, i32 0, i32 %i
  store i32 1, ptr addrspace(3) %p, align 4
  ret void
}

define amdgpu_kernel void @_Z2kki(i32 %i) #0 {
  %p = getelementptr [8 x i32], ptr addrspace(3) @_ZZ2kkiE4tile, i32 0, i32 %i
  store i32 1, ptr addrspace(3) %p, align 4
  ret void
}

attributes #0 = { sanitize_address "target-cpu"="gfx90a" }
attributes #1 = { sanitize_address "target-cpu"="gfx90a" }

!llvm.module.flags = !{!0, !1}
!0 = !{i32 4, !"nosanitize_address", i32 1}
!1 = !{i32 1, !"amdhsa_code_object_version", i32 500}

; WARN: warning: ldsan: warning: LDS variable 'stage2(int)::scratch' is used by device function stage2(int), which no kernel of this translation unit calls; ldsan instruments LDS per translation unit, so with -fgpu-rdc a kernel of another translation unit calling it fails to link (undefined __asan_malloc_impl); declare the __shared__ array in the kernel and pass a pointer to it
; WARN-NOT: warning

; IR: @__ldsan_kdesc._Z2kki =
; IR: !{i32 {{[0-9]+}}, !"ldsan.instrumented", i32 1}
