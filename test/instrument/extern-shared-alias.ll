; Several extern __shared__ arrays alias one dynamic LDS block on hardware.
; Upstream amdgpu-sw-lower-lds would give each its own copy (the second at the
; first's offset + the dynamic size: past the block ldsan bounds, so a clean
; program writing through one and reading through the other got a false
; dynamic-lds-buffer-overflow). The plugin merges them into the first one
; (module order), aligned as the most aligned, before lowering: one dynamic md
; item, every access based on it, the block holds the dynamic size once. Each
; kernel's descriptor still names every dynamic variable it reaches, all at
; static_size. No warning. (No upstream LLVM issue found; see Instrument.cpp.)
; RUN: LDSAN_RUNTIME=%S/stub-rt.ll opt -passes=ldsan-instrument %s -S -o %t.ll 2>%t.err
; RUN: FileCheck %s --check-prefix=ERR --allow-empty < %t.err
; RUN: FileCheck %s --check-prefix=IR < %t.ll
; RUN: llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a -filetype=obj %t.ll -o %t.o
; RUN: llvm-objcopy -O binary --only-section=.ldsan_lds_desc %t.o %t.desc
; RUN: desc-dump %t.desc | FileCheck %s --check-prefix=DESC

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@ints = external addrspace(3) global [0 x i32], align 4
@_ZZ5tableE3val = internal addrspace(3) global [2 x i32] undef, align 4
@doubles = external addrspace(3) global [0 x double], align 8

; Writes through @ints, reads the same bytes back through @doubles.
define amdgpu_kernel void @k_alias(ptr addrspace(1) %out, i32 %i) #0 {
  %p = getelementptr i32, ptr addrspace(3) @ints, i32 %i
  store i32 7, ptr addrspace(3) %p, align 4
  %q = getelementptr double, ptr addrspace(3) @doubles, i32 %i
  %v = load double, ptr addrspace(3) %q, align 8
  store double %v, ptr addrspace(1) %out, align 8
  ret void
}

; @doubles only through a call, @ints and a static directly.
define internal void @helper(i32 %i) {
  %q = getelementptr double, ptr addrspace(3) @doubles, i32 %i
  store double 1.0, ptr addrspace(3) %q, align 8
  ret void
}

define amdgpu_kernel void @k_indirect(i32 %i) #0 {
  %s = getelementptr [2 x i32], ptr addrspace(3) @_ZZ5tableE3val, i32 0, i32 %i
  store i32 1, ptr addrspace(3) %s, align 4
  %p = getelementptr i32, ptr addrspace(3) @ints, i32 %i
  store i32 2, ptr addrspace(3) %p, align 4
  call void @helper(i32 %i)
  ret void
}

; Only the second dynamic variable: its record carries its own name.
define amdgpu_kernel void @k_doubles(i32 %i) #0 {
  %q = getelementptr double, ptr addrspace(3) @doubles, i32 %i
  store double 2.0, ptr addrspace(3) %q, align 8
  ret void
}

attributes #0 = { sanitize_address "target-cpu"="gfx90a" }

!llvm.module.flags = !{!0, !1}
!0 = !{i32 4, !"nosanitize_address", i32 1}
!1 = !{i32 1, !"amdhsa_code_object_version", i32 500}

; ERR-NOT: warning
; ERR-NOT: error

; One dynamic variable is left, and each md has one dynamic item (size 0).
; IR-NOT: @doubles = {{.*}}addrspace(3)
; IR: @llvm.amdgcn.sw.lds.k_alias.md = {{.*}} { %llvm.amdgcn.sw.lds.k_alias.md.item { i32 0, i32 8, i32 32 }, %llvm.amdgcn.sw.lds.k_alias.md.item { i32 32, i32 0, i32 32 } }
; IR-NOT: @doubles = {{.*}}addrspace(3)
; The store through @ints and the load through @doubles share one base.
; IR-LABEL: define amdgpu_kernel void @k_alias(
; IR: [[BASE:%[0-9]+]] = getelementptr inbounds i8, ptr addrspace(3) @llvm.amdgcn.sw.lds.k_alias, i32 %{{[0-9]+}}
; IR-NOT: getelementptr inbounds i8, ptr addrspace(3) @llvm.amdgcn.sw.lds.k_alias,
; IR: %p = getelementptr i32, ptr addrspace(3) [[BASE]], i32 %i
; IR-NOT: getelementptr inbounds i8, ptr addrspace(3) @llvm.amdgcn.sw.lds.k_alias,
; IR: %q = getelementptr double, ptr addrspace(3) [[BASE]], i32 %i
; IR-LABEL: define amdgpu_kernel void @k_indirect(

; DESC: kernel k_alias abi={{[0-9]+}} total={{[0-9]+}} vars=3 static_size=32 max_align=8 flags=D{{$}}
; DESC-NEXT: var 0: offset=0 size=8 redzone=24 align=8 flags=S
; DESC-NEXT: var 1: offset=32 size=0 redzone=0 align=8 flags=D name=doubles
; DESC-NEXT: var 2: offset=32 size=0 redzone=0 align=4 flags=D name=ints
; DESC-NEXT: shadow: e5 e1 e1 e1
; DESC-NEXT: kernel k_indirect abi={{[0-9]+}} total={{[0-9]+}} vars=4 static_size=64 max_align=8 flags=DI{{$}}
; DESC-NEXT: var 0: offset=0 size=8 redzone=24 align=8 flags=S
; DESC-NEXT: var 1: offset=32 size=8 redzone=24 align=4 flags= name=_ZZ5tableE3val
; DESC-NEXT: var 2: offset=64 size=0 redzone=0 align=4 flags=D name=ints
; DESC-NEXT: var 3: offset=64 size=0 redzone=0 align=8 flags=DI name=doubles
; DESC-NEXT: shadow: e5 e1 e1 e1 00 e1 e1 e1
; DESC-NEXT: kernel k_doubles abi={{[0-9]+}} total={{[0-9]+}} vars=2 static_size=32 max_align=8 flags=D{{$}}
; DESC-NEXT: var 0: offset=0 size=8 redzone=24 align=8 flags=S
; DESC-NEXT: var 1: offset=32 size=0 redzone=0 align=8 flags=D name=doubles
; DESC-NEXT: shadow: e5 e1 e1 e1
; DESC-NOT: kernel
