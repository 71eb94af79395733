; Instrumenting twice changes nothing the second time (module flag
; ldsan.instrumented), whether in one opt run or two, and the upstream
; lowering codegen runs again afterwards is a no-op too.
; RUN: LDSAN_RUNTIME=%S/stub-rt.ll opt -passes=ldsan-instrument %S/static.ll -o %t.once.bc
; RUN: LDSAN_RUNTIME=%t.none opt -passes=ldsan-instrument %t.once.bc -o %t.twice.bc
; RUN: opt-noplugin -passes=verify %t.once.bc -o %t.roundtrip.bc
; RUN: cmp %t.roundtrip.bc %t.twice.bc
; RUN: LDSAN_RUNTIME=%S/stub-rt.ll opt -passes=ldsan-instrument,ldsan-instrument %S/static.ll -o %t.pipe.bc
; RUN: cmp %t.once.bc %t.pipe.bc
; RUN: opt-noplugin -passes=amdgpu-sw-lower-lds %t.once.bc -o %t.relowered.bc
; RUN: cmp %t.roundtrip.bc %t.relowered.bc
; RUN: llvm-dis %t.once.bc -o - | FileCheck %s
; CHECK-COUNT-1: call i64 @stub_enter(
; CHECK-NOT: call i64 @stub_enter(
