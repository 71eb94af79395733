; Fences that order a wave's LDS accesses (instrument/WaveFences.h): a fence
; of the program's own code that is not one side of an s_barrier gets an
; llvm.amdgcn.wave.barrier after it, so the race checks see the wave's
; accesses before and after it as ordered; __syncthreads()'s fences, a
; single-thread fence, a fence already followed by a wave barrier and the
; device library's own fences get none.
; RUN: LDSAN_RUNTIME=%S/stub-rt.ll opt -passes=ldsan-instrument %s -S -o %t.ll
; RUN: FileCheck %s < %t.ll

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@s = internal addrspace(3) global [128 x i32] undef, align 16

declare void @llvm.amdgcn.s.barrier()
declare void @llvm.amdgcn.wave.barrier()
declare i32 @llvm.amdgcn.workitem.id.x()
declare void @__atomic_work_item_fence(i32, i32, i32)

; CHECK-LABEL: define amdgpu_kernel void @k(
define amdgpu_kernel void @k(i32 %i) #0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [128 x i32], ptr addrspace(3) @s, i32 0, i32 %t
  store i32 1, ptr addrspace(3) %p, align 4
; tile.sync() (ROCm 5.2): a fence alone
; CHECK: fence syncscope("agent") acq_rel
; CHECK-NEXT: call void @llvm.amdgcn.wave.barrier()
  fence syncscope("agent") acq_rel
; __threadfence_block() at -O0: the device library's call
; CHECK: call void @__atomic_work_item_fence(i32 0, i32 5, i32 1)
; CHECK-NEXT: call void @llvm.amdgcn.wave.barrier()
  call void @__atomic_work_item_fence(i32 0, i32 5, i32 1)
; already followed by a wave barrier: not another one
; CHECK: fence syncscope("workgroup") seq_cst
; CHECK-NEXT: call void @llvm.amdgcn.wave.barrier()
; CHECK-NEXT: fence syncscope("singlethread") seq_cst
; CHECK-NOT: wave.barrier
  fence syncscope("workgroup") seq_cst
  call void @llvm.amdgcn.wave.barrier()
  fence syncscope("singlethread") seq_cst
  %v = load i32, ptr addrspace(3) %p, align 4
; __syncthreads(): its fences are the barrier's
; CHECK: fence syncscope("workgroup") release
; CHECK-NEXT: call void @llvm.amdgcn.s.barrier()
; CHECK-NEXT: fence syncscope("workgroup") acquire
; CHECK-NOT: wave.barrier
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  store i32 %v, ptr addrspace(3) %p, align 4
  call void @__ockl_helper()
  ret void
}

; __syncthreads() at -O0 (the barrier's arguments reloaded from their
; allocas between the fences and the s_barrier): none either
; CHECK-LABEL: define void @work_group_barrier(
; CHECK-NOT: wave.barrier
; CHECK: ret void
define void @work_group_barrier(i32 %flags) #0 {
  %f = alloca i32, addrspace(5)
  store i32 %flags, ptr addrspace(5) %f
  %a = load i32, ptr addrspace(5) %f
  call void @__atomic_work_item_fence(i32 %a, i32 3, i32 1)
  call void @llvm.amdgcn.s.barrier()
  %b = load i32, ptr addrspace(5) %f
  call void @__atomic_work_item_fence(i32 %b, i32 2, i32 1)
  ret void
}

; CHECK-LABEL: define {{.*}}void @__ockl_helper(
; CHECK: fence syncscope("agent") seq_cst
; CHECK-NEXT: ret void
define linkonce_odr void @__ockl_helper() #0 {
  fence syncscope("agent") seq_cst
  ret void
}

attributes #0 = { sanitize_address "target-cpu"="gfx90a" "target-features"="+xnack" }

!llvm.module.flags = !{!0}
!0 = !{i32 4, !"nosanitize_address", i32 1}
