; The wave of work-item 0 writes the block's shadow (WaveShadow.h): the
; pass's work-item-0 branch becomes a ballot of it (true in every lane of that
; wave), enter stays on work-item 0 and its block goes to every lane of the
; wave (readfirstlane), which call enter_wave with it (it copies the
; descriptor's shadow image, so the pass's redzone calls go); at the end every
; lane of that wave calls exit_wave, which also gives the block back.
; RUN: LDSAN_RUNTIME=%S/stub-rt.ll opt -passes=ldsan-instrument %s -S -o %t.ll
; RUN: FileCheck %s < %t.ll

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@_ZZ4fillPiE4tile = internal addrspace(3) global [256 x i32] undef, align 16

; CHECK-LABEL: define amdgpu_kernel void @_Z4fillPi(
; CHECK: %[[ITEM0:[0-9]+]] = icmp eq i32 %{{[0-9]+}}, 0
; CHECK-NEXT: %[[BALLOT:[0-9]+]] = call i64 @llvm.amdgcn.ballot.i64(i1 %[[ITEM0]])
; CHECK-NEXT: %ldsan.wave0 = icmp ne i64 %[[BALLOT]], 0
; CHECK-NEXT: br i1 %ldsan.wave0, label %Malloc, label %[[BODY:[^, ]+]]
; CHECK: Malloc:
; CHECK: br i1 %[[ITEM0]], label %ldsan.enter, label %ldsan.enter.wave
; CHECK: ldsan.enter:
; CHECK-NEXT: %[[GOT:[0-9a-z.]+]] = call i64 @stub_enter(
; CHECK-NEXT: br label %ldsan.enter.wave
; CHECK: ldsan.enter.wave:
; CHECK-NEXT: %[[PHI:[0-9a-z.]+]] = phi i64 [ %[[GOT]], %ldsan.enter ], [ 0, %Malloc ]
; CHECK-NEXT: fence syncscope("workgroup") acq_rel
; CHECK-NEXT: %[[B:[0-9a-z.]+]] = call i64 @llvm.amdgcn.readfirstlane.i64(i64 %[[PHI]])
; CHECK-NEXT: call void @stub_enter_wave(i64 %[[B]])
; CHECK: store ptr addrspace(1) %{{.*}}, ptr addrspace(3) @llvm.amdgcn.sw.lds._Z4fillPi
; The descriptor's shadow image replaces the pass's redzone calls.
; CHECK-NOT: call void @__asan_poison_region(
; The pass's phi of its branch: true on the wave's edges, so the epilogue
; runs on the same wave.
; CHECK: %xyzCond = phi i1 [ false, %WId ], [ true, %{{.*}} ]
; CHECK: br i1 %xyzCond, label %Free, label %End
; CHECK: Free:
; CHECK: call void @stub_exit_wave(i64 %{{[0-9]+}})
; CHECK-NOT: call void @stub_exit(
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
