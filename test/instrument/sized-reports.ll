; LDS accesses amdgpu-sw-lower-lds checks byte by byte (atomics, unaligned and
; odd-sized accesses: a first-byte and a last-byte check, each reporting through
; __asan_report_{load,store}1) are reported with their real size: ldsan rewrites
; each such report to __ldsan_report_{load,store}_sized(start, size). Real 1-byte
; accesses and the usual aligned sizes keep upstream's reports.
; RUN: LDSAN_RUNTIME=%S/stub-rt.ll opt -passes=ldsan-instrument %s -S -o %t.ll
; RUN: FileCheck %s < %t.ll
; The same without value names (clang discards them unless a sanitizer is on,
; as in the LDS-only mode): the checks' report blocks are found by their shape.
; RUN: llvm-as %s -o %t.bc
; RUN: llvm-as %S/stub-rt.ll -o %t.rt.bc
; RUN: LDSAN_RUNTIME=%t.rt.bc opt -discard-value-names -passes=ldsan-instrument %t.bc -S -o %t.nonames.ll
; RUN: FileCheck %s < %t.nonames.ll

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@_ZZ5ksizePiiE4bins = internal addrspace(3) global [64 x i32] undef, align 16
@_ZZ5ksizePiiE5bytes = internal addrspace(3) global [64 x i8] undef, align 16
@_ZZ5ksizePiiE4vecs = internal addrspace(3) global [8 x <4 x float>] undef, align 16

; CHECK-LABEL: define amdgpu_kernel void @_Z5ksizePii(
define amdgpu_kernel void @_Z5ksizePii(i32 %i) #0 {
  ; An LDS atomicAdd: both byte checks report a 4-byte write at its start.
  ; CHECK: call void @__ldsan_report_store_sized(i64 %[[A1:[^,]+]], i64 4)
  ; CHECK: call void @__ldsan_report_store_sized(i64 %[[A2:[^,]+]], i64 4)
  ; CHECK: atomicrmw add ptr addrspace(1) %[[P1:[0-9a-z.]+]], i32 1
  %p = getelementptr [64 x i32], ptr addrspace(3) @_ZZ5ksizePiiE4bins, i32 0, i32 %i
  %old = atomicrmw add ptr addrspace(3) %p, i32 1 monotonic, align 4
  ; An unaligned 8-byte load.
  ; CHECK: call void @__ldsan_report_load_sized(i64 %{{[^,]+}}, i64 8)
  ; CHECK: call void @__ldsan_report_load_sized(i64 %{{[^,]+}}, i64 8)
  ; CHECK: load i64, ptr addrspace(1) %{{[^,]+}}, align 1
  %b = getelementptr [64 x i8], ptr addrspace(3) @_ZZ5ksizePiiE5bytes, i32 0, i32 %i
  %w = load i64, ptr addrspace(3) %b, align 1
  ; A real 1-byte store keeps upstream's report.
  ; CHECK: call void @__asan_report_store1(
  ; CHECK: store i8 7, ptr addrspace(1)
  store i8 7, ptr addrspace(3) %b, align 1
  ; An aligned 16-byte vector load keeps the sized upstream report.
  ; CHECK: call void @__asan_report_load16(
  %v = getelementptr [8 x <4 x float>], ptr addrspace(3) @_ZZ5ksizePiiE4vecs, i32 0, i32 %i
  %x = load <4 x float>, ptr addrspace(3) %v, align 16
  ret void
}
; CHECK-NOT: call void @__asan_report_store1(
; CHECK-NOT: call void @__asan_report_load1(

attributes #0 = { sanitize_address "target-cpu"="gfx90a" }

!llvm.module.flags = !{!0}
!0 = !{i32 4, !"nosanitize_address", i32 1}
