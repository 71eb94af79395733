; The device runtime: $LDSAN_RUNTIME, else ldsan-rt.bc beside the plugin.
; Missing or unreadable: one error with the path and reason, module unchanged.
; RUN: LDSAN_RUNTIME=%t.none not opt -passes=ldsan-instrument %S/static.ll -o %t.bc 2>&1 \
; RUN:   | FileCheck %s --check-prefix=MISSING -DPATH=%t.none --implicit-check-not=ldsan
; RUN: LDSAN_RUNTIME=%t.none opt -passes=ldsan-instrument -ldsan-errors-as-warnings %S/static.ll -o %t.bc 2>/dev/null
; RUN: opt-noplugin -passes=verify %S/static.ll -o %t.orig.bc
; RUN: cmp %t.orig.bc %t.bc
; RUN: echo garbage > %t.garbage
; RUN: LDSAN_RUNTIME=%t.garbage not opt -passes=ldsan-instrument %S/static.ll -o %t.bc 2>&1 \
; RUN:   | FileCheck %s --check-prefix=GARBAGE -DPATH=%t.garbage
; Default location, next to the plugin:
; RUN: rm -rf %t.dir && mkdir -p %t.dir && cp %plugin %t.dir/
; RUN: LDSAN_RUNTIME= not opt-noplugin -load-pass-plugin=%t.dir/ldsan-instrument.so -passes=ldsan-instrument %S/static.ll -o %t.bc 2>&1 \
; RUN:   | FileCheck %s --check-prefix=MISSING -DPATH=%t.dir/ldsan-rt.bc
; RUN: llvm-as %S/stub-rt.ll -o %t.dir/ldsan-rt.bc
; RUN: LDSAN_RUNTIME= opt-noplugin -load-pass-plugin=%t.dir/ldsan-instrument.so -passes=ldsan-instrument %S/static.ll -S -o - \
; RUN:   | FileCheck %s --check-prefix=DEFAULT
; MISSING: error: ldsan: error: cannot read the ldsan device runtime '[[PATH]]': No such file or directory; run 'make' in the ldsan tree or set LDSAN_RUNTIME
; GARBAGE: error: ldsan: error: cannot read the ldsan device runtime '[[PATH]]': not LLVM IR or bitcode: {{.+}}; run 'make' in the ldsan tree or set LDSAN_RUNTIME
; DEFAULT: define internal i64 @stub_enter(
