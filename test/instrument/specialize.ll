; Each block call is inlined from a copy of the runtime function made for it
; (InlineBlockCalls.h): the kernel's descriptor and, without dynamic LDS, its
; block size are put in and the copy is simplified, so the runtime's null
; check of the descriptor, the load of its magic and the branch on the block
; size fold away. The kernel's own code is not touched: the LDS pass's layout
; table stays a writable global, and the kernel still reads its offsets from
; it.
; What the simplification makes is marked as the runtime's (!ldsan.rt), as the
; runtime's code is: on a wave32 target InstCombine turns the ballot.i64 into
; a new ballot.i32, which the CPU emulator would otherwise take for the
; kernel's own cross-lane code (and run every kernel in lockstep).
; RUN: LDSAN_RUNTIME=%S/specialize-rt.ll opt -passes=ldsan-instrument %s -S -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: sed 's/"gfx90a"/"gfx1100"/' %s | LDSAN_RUNTIME=%S/specialize-rt.ll opt -passes=ldsan-instrument -S -o %t32.ll
; RUN: FileCheck %s --check-prefix=W32 < %t32.ll

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@_ZZ4fillPiE4tile = internal addrspace(3) global [256 x i32] undef, align 16

define amdgpu_kernel void @_Z4fillPi(ptr addrspace(1) %out, i32 %i) #0 {
  %p = getelementptr [256 x i32], ptr addrspace(3) @_ZZ4fillPiE4tile, i32 0, i32 %i
  store i32 1, ptr addrspace(3) %p, align 4
  ret void
}

attributes #0 = { sanitize_address "target-cpu"="gfx90a" }

!llvm.module.flags = !{!0, !1}
!0 = !{i32 4, !"nosanitize_address", i32 1}
!1 = !{i32 1, !"amdhsa_code_object_version", i32 500}

; CHECK: @llvm.amdgcn.sw.lds._Z4fillPi.md = internal addrspace(1) global
; CHECK-LABEL: define amdgpu_kernel void @_Z4fillPi(
; CHECK: load i32, ptr addrspace(1) getelementptr inbounds {{.*}}@llvm.amdgcn.sw.lds._Z4fillPi.md
; CHECK: ldsan.enter:
; CHECK-NOT: icmp
; CHECK-NOT: stub_large
; The block (the 32-byte compiler slot, 1024 bytes, 256 of redzone) and the
; descriptor's magic (0x4b44534c, abi.h), as constants.
; CHECK-NEXT: %[[L:[0-9a-z.]+]] = call i64 @llvm.amdgcn.ballot.i64(i1 true), !ldsan.rt
; CHECK-NEXT: call void @stub_seen(i64 1312, i32 1262768972, i64 %[[L]])
; CHECK-NEXT: call i64 @stub_enter(i64 1312, i64 ptrtoint (ptr addrspace(1) @__ldsan_kdesc._Z4fillPi to i64))

; W32-LABEL: define amdgpu_kernel void @_Z4fillPi(
; W32: ldsan.enter:
; W32: call i32 @llvm.amdgcn.ballot.i32(i1 true), !ldsan.rt
; W32: call void @stub_seen(i64 1312, i32 1262768972, i64
