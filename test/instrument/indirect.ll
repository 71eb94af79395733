; LDS reached through non-inlined functions (indirect), one variable shared by
; three kernels, and a kernel that calls an unknown function and so reaches
; the variables of address-taken functions (upstream's rule).
; RUN: LDSAN_RUNTIME=%S/stub-rt.ll opt -passes=ldsan-instrument %s -S -o %t.ll
; RUN: FileCheck %s --check-prefix=IR < %t.ll
; RUN: llc -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a -filetype=obj %t.ll -o %t.o
; RUN: llvm-objcopy -O binary --only-section=.ldsan_lds_desc %t.o %t.desc
; RUN: desc-dump %t.desc | FileCheck %s --check-prefix=DESC

target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@shared = hidden addrspace(3) global [16 x i32] undef, align 16
@own = internal addrspace(3) global [2 x i64] undef, align 8
@fonly = internal addrspace(3) global [3 x i32] undef, align 4
@viaptr = internal addrspace(3) global [1 x i32] undef, align 4
@table = addrspace(1) global ptr @fp_user

define internal void @helper2(i32 %i) #1 {
  %p = getelementptr [3 x i32], ptr addrspace(3) @fonly, i32 0, i32 %i
  store i32 2, ptr addrspace(3) %p, align 4
  ret void
}

define internal void @helper(i32 %i) #1 {
  %p = getelementptr [16 x i32], ptr addrspace(3) @shared, i32 0, i32 %i
  store i32 1, ptr addrspace(3) %p, align 4
  call void @helper2(i32 %i)
  ret void
}

define internal void @fp_user() #1 {
  store i32 3, ptr addrspace(3) @viaptr, align 4
  ret void
}

declare void @ext()

define amdgpu_kernel void @k1(i32 %i) #0 {
  %p = getelementptr [2 x i64], ptr addrspace(3) @own, i32 0, i32 %i
  store i64 1, ptr addrspace(3) %p, align 8
  store i32 0, ptr addrspace(3) @shared, align 16
  call void @helper(i32 %i)
  call void @ext()
  ret void
}

define amdgpu_kernel void @k2(i32 %i) #0 {
  call void @helper(i32 %i)
  ret void
}

define amdgpu_kernel void @k3(i32 %i) #0 {
  %p = getelementptr [16 x i32], ptr addrspace(3) @shared, i32 0, i32 %i
  store i32 3, ptr addrspace(3) %p, align 4
  ret void
}

attributes #0 = { sanitize_address "amdgpu-no-lds-kernel-id" "amdgpu-no-workgroup-id-y" "target-cpu"="gfx90a" }
attributes #1 = { noinline sanitize_address "amdgpu-no-lds-kernel-id" "amdgpu-no-implicitarg-ptr" "target-cpu"="gfx90a" }

!llvm.module.flags = !{!0, !1}
!0 = !{i32 4, !"nosanitize_address", i32 1}
!1 = !{i32 1, !"amdhsa_code_object_version", i32 500}

; Functions reach LDS through the kernel-id tables.
; IR: @llvm.amdgcn.sw.lds.base.table =
; IR-LABEL: define internal void @helper2(
; IR-SAME: #[[FN:[0-9]+]]
; IR: call i32 @llvm.amdgcn.lds.kernel.id()
; IR-LABEL: define amdgpu_kernel void @k1(
; IR-SAME: #[[K:[0-9]+]] !llvm.amdgcn.lds.kernel.id
; IR: call i64 @stub_enter(i64 %{{[0-9]+}}, i64 ptrtoint (ptr addrspace(1) @__ldsan_kdesc.k1 to i64))
; IR-LABEL: define amdgpu_kernel void @k2(
; IR: call i64 @stub_enter(i64 %{{[0-9]+}}, i64 ptrtoint (ptr addrspace(1) @__ldsan_kdesc.k2 to i64))
; IR-LABEL: define amdgpu_kernel void @k3(
; IR-NOT: !llvm.amdgcn.lds.kernel.id
; IR: call i64 @stub_enter(i64 128, i64 ptrtoint (ptr addrspace(1) @__ldsan_kdesc.k3 to i64))
; IR: attributes #[[FN]] = { noinline norecurse sanitize_address "target-cpu"="gfx90a" }
; IR: attributes #[[K]] = { sanitize_address "amdgpu-lds-size"="16" "target-cpu"="gfx90a" }

; k1: own (direct), shared (direct, also reached through helper), then the
; indirect-only ones sorted by name: fonly (helper2), viaptr (fp_user, reached
; because k1 calls the unknown @ext).
; DESC: kernel k1 abi={{[0-9]+}} total={{[0-9]+}} vars=5 static_size=224 max_align=16 flags=I{{$}}
; DESC-NEXT: var 0: offset=0 size=8 redzone=24 align=8 flags=S
; DESC-NEXT: var 1: offset=32 size=16 redzone=16 align=8 flags= name=own
; DESC-NEXT: var 2: offset=64 size=64 redzone=32 align=16 flags=I name=shared
; DESC-NEXT: var 3: offset=160 size=12 redzone=20 align=4 flags=I name=fonly
; DESC-NEXT: var 4: offset=192 size=4 redzone=28 align=4 flags=I name=viaptr
; DESC-NEXT: shadow: e5 e1 e1 e1 00 00 e1 e1 00 00 00 00 00 00 00 00 e1 e1 e1 e1 00 04 e1 e1 04 e1 e1 e1
; k2 reaches LDS only through helper/helper2 and makes no unknown call.
; DESC-NEXT: kernel k2 abi={{[0-9]+}} total={{[0-9]+}} vars=3 static_size=160 max_align=16 flags=I{{$}}
; DESC-NEXT: var 0: offset=0 size=8 redzone=24 align=8 flags=S
; DESC-NEXT: var 1: offset=32 size=12 redzone=20 align=4 flags=I name=fonly
; DESC-NEXT: var 2: offset=64 size=64 redzone=32 align=16 flags=I name=shared
; DESC-NEXT: shadow: e5 e1 e1 e1 00 04 e1 e1 00 00 00 00 00 00 00 00 e1 e1 e1 e1
; k3 uses the shared variable directly only.
; DESC-NEXT: kernel k3 abi={{[0-9]+}} total={{[0-9]+}} vars=2 static_size=128 max_align=16 flags={{$}}
; DESC-NEXT: var 0: offset=0 size=8 redzone=24 align=8 flags=S
; DESC-NEXT: var 1: offset=32 size=64 redzone=32 align=16 flags= name=shared
; DESC-NEXT: shadow: e5 e1 e1 e1 00 00 00 00 00 00 00 00 e1 e1 e1 e1
; DESC-NOT: kernel
