; Modules ldsan must not touch come out byte-identical: a host (x86-64)
; module, even with the nosanitize_address flag and through ASan (the
; after-pass hook), and an amdgcn module without the flag. LDSAN_RUNTIME points
; nowhere, so any attempt to instrument would also fail loudly.
; RUN: opt-noplugin -passes=verify %s -o %t.plain.bc
; RUN: LDSAN_RUNTIME=%t.none opt -passes=ldsan-instrument %s -o %t.plugin.bc
; RUN: cmp %t.plain.bc %t.plugin.bc
; RUN: opt-noplugin -passes=asan %s -o %t.asan-plain.bc
; RUN: LDSAN_RUNTIME=%t.none opt -passes=asan %s -o %t.asan-plugin.bc
; RUN: cmp %t.asan-plain.bc %t.asan-plugin.bc
; RUN: opt-noplugin -passes=verify %S/untouched-amdgcn.ll.in -o %t.gpu-plain.bc
; RUN: LDSAN_RUNTIME=%t.none opt -passes=ldsan-instrument %S/untouched-amdgcn.ll.in -o %t.gpu-plugin.bc
; RUN: cmp %t.gpu-plain.bc %t.gpu-plugin.bc
; RUN: opt-noplugin -passes='default<O2>' %S/untouched-amdgcn.ll.in -o %t.gpu-o2-plain.bc
; RUN: LDSAN_RUNTIME=%t.none opt -passes='default<O2>' %S/untouched-amdgcn.ll.in -o %t.gpu-o2-plugin.bc
; RUN: cmp %t.gpu-o2-plain.bc %t.gpu-o2-plugin.bc

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@g = global [4 x i32] zeroinitializer, align 16

define void @f(i32 %i) #0 {
  %p = getelementptr [4 x i32], ptr @g, i32 0, i32 %i
  store i32 1, ptr %p, align 4
  ret void
}

attributes #0 = { sanitize_address }

!llvm.module.flags = !{!0}
!0 = !{i32 4, !"nosanitize_address", i32 1}
