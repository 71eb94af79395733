; Static LDS of one kernel: descriptor contents (names, debug names and
; file:line, offsets, sizes, redzones, alignments, flags), the enter/exit
; rewrite, the runtime link (only what is needed, internal, target attributes),
; the amdgpu-no-* attributes stripped, and a kernel without LDS left alone.
; RUN: LDSAN_RUNTIME=%S/stub-rt.ll opt -passes=ldsan-instrument %s -S -o %t.ll
; RUN: FileCheck %s --check-prefix=IR < %t.ll
; RUN: llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a -filetype=obj %t.ll -o %t.o
; RUN: llvm-objcopy -O binary --only-section=.ldsan_lds_desc %t.o %t.desc
; RUN: desc-dump %t.desc | FileCheck %s --check-prefix=DESC

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@_ZZ5kstatPiiE4tile = internal addrspace(3) global [64 x i32] undef, align 16, !dbg !0
@_ZZ5kstatPiiE5other = internal addrspace(3) global [10 x float] undef, align 4, !dbg !5

define amdgpu_kernel void @_Z5kstatPii(i32 %i) #0 {
  %p = getelementptr [64 x i32], ptr addrspace(3) @_ZZ5kstatPiiE4tile, i32 0, i32 %i
  store i32 1, ptr addrspace(3) %p, align 4
  %q = getelementptr [10 x float], ptr addrspace(3) @_ZZ5kstatPiiE5other, i32 0, i32 %i
  store float 1.0, ptr addrspace(3) %q, align 4
  ret void
}

define amdgpu_kernel void @_Z6knoldsPi(ptr addrspace(1) %out) #0 {
  store i32 7, ptr addrspace(1) %out, align 4
  ret void
}

attributes #0 = { sanitize_address "amdgpu-no-dispatch-ptr" "amdgpu-no-heap-ptr" "amdgpu-no-implicitarg-ptr" "amdgpu-no-lds-kernel-id" "amdgpu-no-queue-ptr" "amdgpu-no-workgroup-id-x" "amdgpu-no-workgroup-id-y" "amdgpu-no-workgroup-id-z" "amdgpu-no-workitem-id-x" "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" "target-cpu"="gfx90a" }

!llvm.dbg.cu = !{!1}
!llvm.module.flags = !{!10, !11, !12, !13}
!0 = !DIGlobalVariableExpression(var: !2, expr: !DIExpression())
!1 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !3, producer: "hand-written", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, globals: !4)
!2 = distinct !DIGlobalVariable(name: "tile", scope: !1, file: !3, line: 6, type: !7, isLocal: true, isDefinition: true)
!3 = !DIFile(filename: "k.hip", directory: "/src")
!4 = !{!0, !5}
!5 = !DIGlobalVariableExpression(var: !6, expr: !DIExpression())
!6 = distinct !DIGlobalVariable(name: "other", scope: !1, file: !3, line: 7, type: !7, isLocal: true, isDefinition: true)
!7 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!10 = !{i32 4, !"nosanitize_address", i32 1}
!11 = !{i32 1, !"amdhsa_code_object_version", i32 500}
!12 = !{i32 7, !"Dwarf Version", i32 5}
!13 = !{i32 2, !"Debug Info Version", i32 3}

; The descriptor is internal, read-only, 8-aligned, in its own section, kept.
; IR: @__ldsan_kdesc._Z5kstatPii = internal addrspace(1) constant [304 x i8] c"LSDK{{.*}}", section ".ldsan_lds_desc", no_sanitize_address, align 8
; IR-NOT: @__ldsan_kdesc._Z6knoldsPi
; IR: @llvm.compiler.used = appending addrspace(1) global [1 x ptr] [ptr addrspacecast (ptr addrspace(1) @__ldsan_kdesc._Z5kstatPii to ptr)]
; The device state is always linked and stays visible to the host; weak_odr,
; so an -fgpu-rdc device link keeps one copy (test/tools/rdc.sh).
; IR: @__ldsan_device_state = weak_odr protected addrspace(1) global
; IR: @__ldsan_builtin_channel = weak_odr protected addrspace(1) global
; IR: @__ldsan_builtin_pool = weak_odr protected addrspace(1) global

; IR-LABEL: define amdgpu_kernel void @_Z5kstatPii(
; IR-SAME: #[[KSTAT:[0-9]+]]
; IR: Malloc:
; IR: %[[ITEM0:[0-9a-z.]+]] = call i64 @stub_enter(i64 448, i64 ptrtoint (ptr addrspace(1) @__ldsan_kdesc._Z5kstatPii to i64))
; IR: ldsan.enter.wave:
; IR-NEXT: phi i64 [ %[[ITEM0]], %ldsan.enter ], [ 0, %Malloc ]
; IR-NEXT: fence syncscope("workgroup") acq_rel
; IR-NEXT: %[[BLOCK:[0-9a-z.]+]] = call i64 @llvm.amdgcn.readfirstlane.i64(
; IR-NEXT: call void @stub_enter_wave(i64 %[[BLOCK]])
; IR-NEXT: icmp eq i64 %[[BLOCK]], 0
; IR: inttoptr i64 %[[BLOCK]] to ptr addrspace(1)
; The descriptor carries the block's shadow image (DESC below): the pass's
; calls that poison each redzone are gone.
; IR-NOT: call void @__asan_poison_region(
; IR: {{^}}Free:
; IR-NEXT: %[[PTR:[0-9]+]] = ptrtoint ptr addrspace(1)
; IR-NEXT: call void @stub_exit_wave(i64 %[[PTR]])

; A kernel without LDS is not lowered.
; IR-LABEL: define amdgpu_kernel void @_Z6knoldsPi(
; IR-SAME: #[[KNOLDS:[0-9]+]]
; IR-NEXT: store i32 7
; IR-NEXT: ret void

; Only what the kernels need comes from the runtime, internal, for gfx90a.
; IR-NOT: __asan_malloc_impl
; IR-NOT: __asan_free_impl
; IR: define internal i64 @stub_enter(i64 %size, i64 %desc) #[[RT:[0-9]+]]
; IR: define internal void @stub_enter_wave(i64 %block) #[[RT]]
; IR: define internal void @stub_exit_wave(i64 %block) #[[RT]]
; IR: define internal void @__asan_report_store4(i64 %addr) #[[RT]]
; IR-NOT: stub_never_called
; IR-NOT: __asan_report_load4

; amdgpu-no-* for inputs the runtime reads are gone everywhere; others stay.
; IR: attributes #[[KSTAT]] = { norecurse sanitize_address "amdgpu-lds-size"="16" "amdgpu-no-queue-ptr" "target-cpu"="gfx90a" }
; IR: attributes #[[KNOLDS]] = { norecurse sanitize_address "amdgpu-no-queue-ptr" "target-cpu"="gfx90a" }
; IR: attributes #[[RT]] = { norecurse nounwind "target-cpu"="gfx90a" }
; IR: !{i32 7, !"ldsan.instrumented", i32 1}

; DESC: kernel _Z5kstatPii abi={{[0-9]+}} total=304 vars=3 static_size=448 max_align=16 flags={{$}}
; DESC-NEXT: var 0: offset=0 size=8 redzone=24 align=8 flags=S name=<compiler LDS slot> source=- at=-:0
; DESC-NEXT: var 1: offset=32 size=256 redzone=64 align=16 flags= name=_ZZ5kstatPiiE4tile source=tile at=k.hip:6
; DESC-NEXT: var 2: offset=352 size=40 redzone=56 align=4 flags= name=_ZZ5kstatPiiE5other source=other at=k.hip:7
; DESC-NEXT: shadow: e5 e1 e1 e1 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 e1 e1 e1 e1 e1 e1 e1 e1 00 00 00 00 00 e1 e1 e1 e1 e1 e1 e1
; DESC-NOT: kernel
