; Dynamic LDS (extern __shared__): HAS_DYNAMIC, the record starts at
; static_size with size 0 and no redzone; a kernel reaching two dynamic
; variables gets one record each, both at static_size (they alias:
; extern-shared-alias.ll), and no warning.
; RUN: LDSAN_RUNTIME=%S/stub-rt.ll opt -passes=ldsan-instrument %s -S -o %t.ll 2>%t.err
; RUN: FileCheck %s --check-prefix=WARN --allow-empty < %t.err
; RUN: FileCheck %s --check-prefix=IR < %t.ll
; RUN: llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a -filetype=obj %t.ll -o %t.o
; RUN: llvm-objcopy -O binary --only-section=.ldsan_lds_desc %t.o %t.desc
; RUN: desc-dump %t.desc | FileCheck %s --check-prefix=DESC

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@_ZZ4kdynPiE1s = internal addrspace(3) global [4 x i32] undef, align 4
@dyn = external addrspace(3) global [0 x i8], align 16
@dynf = external addrspace(3) global [0 x float], align 4

define amdgpu_kernel void @_Z4kdynPi(i32 %i) #0 {
  %p = getelementptr [4 x i32], ptr addrspace(3) @_ZZ4kdynPiE1s, i32 0, i32 %i
  store i32 1, ptr addrspace(3) %p, align 4
  %d = getelementptr i8, ptr addrspace(3) @dyn, i32 %i
  store i8 1, ptr addrspace(3) %d, align 1
  ret void
}

define amdgpu_kernel void @_Z5kdyn2i(i32 %i) #0 {
  %d = getelementptr i8, ptr addrspace(3) @dyn, i32 %i
  store i8 1, ptr addrspace(3) %d, align 1
  %f = getelementptr float, ptr addrspace(3) @dynf, i32 %i
  store float 1.0, ptr addrspace(3) %f, align 4
  ret void
}

attributes #0 = { sanitize_address "target-cpu"="gfx90a" }

!llvm.module.flags = !{!0, !1}
!0 = !{i32 4, !"nosanitize_address", i32 1}
!1 = !{i32 1, !"amdhsa_code_object_version", i32 500}

; WARN-NOT: warning

; The dynamic size is read from the implicit arguments and added to the size
; ldsan's enter receives.
; IR-LABEL: define amdgpu_kernel void @_Z4kdynPi(
; IR: call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
; IR: call i64 @stub_enter(i64 %{{[0-9]+}}, i64 ptrtoint (ptr addrspace(1) @__ldsan_kdesc._Z4kdynPi to i64))
; IR: call void @stub_exit_wave(i64 %{{[0-9]+}})
; IR-LABEL: define amdgpu_kernel void @_Z5kdyn2i(
; IR: call i64 @stub_enter(i64 %{{[0-9]+}}, i64 ptrtoint (ptr addrspace(1) @__ldsan_kdesc._Z5kdyn2i to i64))

; DESC: kernel _Z4kdynPi abi={{[0-9]+}} total={{[0-9]+}} vars=3 static_size=64 max_align=16 flags=D{{$}}
; DESC-NEXT: var 0: offset=0 size=8 redzone=24 align=8 flags=S name=<compiler LDS slot>
; DESC-NEXT: var 1: offset=32 size=16 redzone=16 align=4 flags= name=_ZZ4kdynPiE1s source=- at=-:0
; DESC-NEXT: var 2: offset=64 size=0 redzone=0 align=16 flags=D name=dyn source=- at=-:0
; DESC-NEXT: shadow: e5 e1 e1 e1 00 00 e1 e1
; DESC-NEXT: kernel _Z5kdyn2i abi={{[0-9]+}} total={{[0-9]+}} vars=3 static_size=32 max_align=16 flags=D{{$}}
; DESC-NEXT: var 0: offset=0 size=8 redzone=24 align=8 flags=S
; DESC-NEXT: var 1: offset=32 size=0 redzone=0 align=16 flags=D name=dyn
; DESC-NEXT: var 2: offset=32 size=0 redzone=0 align=4 flags=D name=dynf
; DESC-NEXT: shadow: e5 e1 e1 e1
; DESC-NOT: kernel
