; A workgroup that gets no LDS block (ldsan's __ldsan_kernel_enter reported why
; and returned 0) must not run the kernel: work-item 0 skips the prologue's
; poisoning and stores null in the LDS slot, and after the prologue's barrier
; every work-item reads the slot and returns when it is null, before any
; access to the block. The barriers that hand the block over (prologue, and
; the one before the block is freed) get __syncthreads()'s workgroup fences.
; RUN: LDSAN_RUNTIME=%S/stub-rt.ll opt -passes=ldsan-instrument %s -S -o %t.ll
; RUN: FileCheck %s < %t.ll

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@_ZZ4fillPiE4tile = internal addrspace(3) global [256 x i32] undef, align 16

; CHECK-LABEL: define amdgpu_kernel void @_Z4fillPi(
; CHECK: call i64 @stub_enter(
; CHECK: %[[B:[0-9a-z.]+]] = call i64 @llvm.amdgcn.readfirstlane.i64(
; CHECK-NEXT: call void @stub_enter_wave(i64 %[[B]])
; CHECK-NEXT: %[[NONE:.*]] = icmp eq i64 %[[B]], 0
; CHECK-NEXT: br i1 %[[NONE]], label %ldsan.no_block, label %[[REST:[^,]+]], !prof
; CHECK: ldsan.no_block:
; CHECK-NEXT: store ptr addrspace(1) null, ptr addrspace(3) @llvm.amdgcn.sw.lds._Z4fillPi
; CHECK-NEXT: br label %[[MERGE:[^ ]+]]
; CHECK: [[REST]]:
; CHECK: store ptr addrspace(1) %{{.*}}, ptr addrspace(3) @llvm.amdgcn.sw.lds._Z4fillPi
; CHECK: [[MERGE]]:
; CHECK-NEXT: phi i1 {{.*}} [ true, %ldsan.no_block ]
; CHECK-NEXT: fence syncscope("workgroup") release
; CHECK-NEXT: call void @llvm.amdgcn.s.barrier()
; CHECK-NEXT: fence syncscope("workgroup") acquire
; CHECK-NEXT: %ldsan.block = load ptr addrspace(1), ptr addrspace(3) @llvm.amdgcn.sw.lds._Z4fillPi
; CHECK-NEXT: %[[NULL:.*]] = icmp eq ptr addrspace(1) %ldsan.block, null
; CHECK-NEXT: br i1 %[[NULL]], label %ldsan.no_block.exit, label %{{.*}}, !prof
; The exit barrier is marked for the CPU emulator (LDSAN_EXIT_BARRIER_MD).
; CHECK: fence syncscope("workgroup") release
; CHECK-NEXT: call void @llvm.amdgcn.s.barrier(), !ldsan.exit_barrier
; CHECK-NEXT: fence syncscope("workgroup") acquire
; CHECK-NEXT: br i1 %xyzCond
; CHECK: call void @stub_exit_wave(
; CHECK: ldsan.no_block.exit:
; CHECK-NEXT: ret void
define amdgpu_kernel void @_Z4fillPi(ptr addrspace(1) %out) #0 {
  %i = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [256 x i32], ptr addrspace(3) @_ZZ4fillPiE4tile, i32 0, i32 %i
  store i32 %i, ptr addrspace(3) %p, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()

attributes #0 = { sanitize_address "target-cpu"="gfx90a" "target-features"="+xnack" }

!llvm.module.flags = !{!0}
!0 = !{i32 4, !"nosanitize_address", i32 1}
