; The "cannot handle" path: the lowering's metadata does not have the shape
; ldsan knows (simulated with a hidden test option that reshapes every
; @llvm.amdgcn.sw.lds.<k>.md into {i32, i32} items after lowering). One error
; naming the kernel and what to do; the module is left unchanged.
; RUN: LDSAN_RUNTIME=%S/stub-rt.ll not opt -passes=ldsan-instrument -ldsan-test-unexpected-md %S/static.ll -o %t.bc 2>&1 \
; RUN:   | FileCheck %s --implicit-check-not=ldsan
; RUN: LDSAN_RUNTIME=%S/stub-rt.ll opt -passes=ldsan-instrument -ldsan-test-unexpected-md -ldsan-errors-as-warnings %S/static.ll -o %t.bc 2>&1 \
; RUN:   | FileCheck %s --check-prefix=WARN
; RUN: opt-noplugin -passes=verify %S/static.ll -o %t.orig.bc
; RUN: cmp %t.orig.bc %t.bc
; CHECK: error: ldsan: error: @llvm.amdgcn.sw.lds._Z5kstatPii.md has items of type { i32, i32 }, expected {i32, i32, i32}, in kernel _Z5kstatPii; this LLVM's amdgpu-sw-lower-lds is not the one ldsan was written for; update ldsan's plugin (instrument/) or build without -fsanitize=address
; WARN: warning: ldsan: error: @llvm.amdgcn.sw.lds._Z5kstatPii.md has items of type { i32, i32 }
