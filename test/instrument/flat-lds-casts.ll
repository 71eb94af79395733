; LDS accesses through a cast flat pointer (instrument/FlatLdsCasts.h): the
; AMDGPU attributor turns a helper's flat accesses into LDS ones when every
; caller passes an LDS pointer; after amdgpu-sw-lower-lds those pointers hold
; addresses in the block, in global memory, so the plugin makes the accesses
; flat again (GEPs redone in flat, !noalias.addrspace dropped) and, ASan having
; skipped them as LDS, checks each with the runtime's __asan_{load,store}{N}.
; A function without sanitize_address gets no check; in the LDS-only mode the
; flat-access check __ldsan_flat_lds_access covers them.
; RUN: LDSAN_RUNTIME=%S/stub-rt.ll opt -passes=ldsan-instrument %s -S -o %t.ll
; RUN: FileCheck %s < %t.ll
; The LDS-only mode's input has no ASan (no nosanitize_address flag).
; RUN: sed 's/^!llvm.module.flags = !{!1, !2}/!llvm.module.flags = !{!1}/' %s > %t.plain.ll
; RUN: LDSAN_RUNTIME_LDS=%rt-lds opt -ldsan-lds-only -passes=ldsan-instrument %t.plain.ll -S -o %t.lds.ll
; RUN: FileCheck %s --check-prefix=LDS < %t.lds.ll

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@s = internal addrspace(3) global [64 x double] undef, align 16

declare i32 @llvm.amdgcn.workitem.id.x()

; CHECK-LABEL: define internal double @get(
; CHECK-NOT: addrspacecast
; CHECK: %[[A:.*]] = ptrtoint ptr %p to i64
; CHECK-NEXT: call void @__asan_load8(i64 %[[A]])
; CHECK-NEXT: load double, ptr %p, align 8{{$}}
; LDS-LABEL: define internal double @get(
; LDS: call void @__ldsan_flat_lds_access(
; LDS: load double, ptr %p, align 8
define internal double @get(ptr %p) #0 {
  %c = addrspacecast ptr %p to ptr addrspace(3)
  %v = load double, ptr addrspace(3) %c, align 8, !noalias.addrspace !0
  ret double %v
}

; CHECK-LABEL: define internal void @put_at(
; CHECK-NOT: addrspacecast
; CHECK: %[[G:.*]] = getelementptr inbounds double, ptr %p, i32 %i
; CHECK: call void @__asan_store8(
; CHECK-NEXT: store double %v, ptr %[[G]], align 8
; CHECK: call void @__asan_storeN(i64 %{{.*}}, i64 12)
; CHECK-NEXT: store <3 x i32> zeroinitializer, ptr %{{.*}}, align 4
; CHECK: call void @__asan_store4(
; CHECK-NEXT: atomicrmw add ptr %p, i32 1 syncscope("workgroup") monotonic
define internal void @put_at(ptr %p, i32 %i, double %v) #0 {
  %c = addrspacecast ptr %p to ptr addrspace(3)
  %g = getelementptr inbounds double, ptr addrspace(3) %c, i32 %i
  store double %v, ptr addrspace(3) %g, align 8
  %h = getelementptr inbounds i8, ptr addrspace(3) %g, i32 8
  store <3 x i32> zeroinitializer, ptr addrspace(3) %h, align 4
  %a = atomicrmw add ptr addrspace(3) %c, i32 1 syncscope("workgroup") monotonic
  ret void
}

; Not sanitized: flat again, unchecked.
; CHECK-LABEL: define internal double @get_unchecked(
; CHECK-NOT: __asan
; CHECK: load double, ptr %p, align 8
; CHECK: ret double
define internal double @get_unchecked(ptr %p) {
  %c = addrspacecast ptr %p to ptr addrspace(3)
  %v = load double, ptr addrspace(3) %c, align 8
  ret double %v
}

define amdgpu_kernel void @k() #0 {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [64 x double], ptr addrspace(3) @s, i32 0, i32 %t
  %f = addrspacecast ptr addrspace(3) %p to ptr
  call void @put_at(ptr %f, i32 1, double 1.0)
  %v = call double @get(ptr %f)
  %w = call double @get_unchecked(ptr %f)
  %x = fadd double %v, %w
  store double %x, ptr addrspace(3) %p, align 8
  ret void
}

attributes #0 = { sanitize_address "target-cpu"="gfx90a" }

!llvm.module.flags = !{!1, !2}
!0 = !{i32 1, i32 3, i32 4, i32 10}
!1 = !{i32 1, !"amdhsa_code_object_version", i32 500}
!2 = !{i32 4, !"nosanitize_address", i32 1}
