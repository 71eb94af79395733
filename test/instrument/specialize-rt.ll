; stub-rt.ll (a stand-in for build/lib/ldsan-rt.bc) with an enter that does
; what the runtime's does with its arguments: a null check of the descriptor,
; a load of its magic, a branch on the block size, and a ballot of the wave's
; lanes (test specialize.ll).
; Otherwise the same as stub-rt.ll.
target triple = "amdgcn-amd-amdhsa"

@__ldsan_device_state = addrspace(1) global [4 x i64] zeroinitializer, align 8
@__ldsan_builtin_channel = addrspace(1) global [16 x i8] zeroinitializer, align 8
@__ldsan_builtin_pool = addrspace(1) global [64 x i8] zeroinitializer, align 64
@llvm.used = appending addrspace(1) global [1 x ptr] [ptr @stub_never_called], section "llvm.metadata"

define i64 @__ldsan_kernel_enter(i64 %size, i64 %desc) #1 {
  %none = icmp eq i64 %desc, 0
  br i1 %none, label %without, label %with

with:
  %d = inttoptr i64 %desc to ptr addrspace(1)
  %magic = load i32, ptr addrspace(1) %d, align 4
  %big = icmp ugt i64 %size, 4096
  br i1 %big, label %large, label %small

small:
  %lanes = call i64 @llvm.amdgcn.ballot.i64(i1 true)
  call void @stub_seen(i64 %size, i32 %magic, i64 %lanes)
  br label %without

large:
  call void @stub_large(i64 %size)
  br label %without

without:
  %p = call i64 @stub_enter(i64 %size, i64 %desc)
  ret i64 %p
}

define void @stub_seen(i64 %size, i32 %magic, i64 %lanes) #0 {
  ret void
}

define void @stub_large(i64 %size) #0 {
  ret void
}

define void @__ldsan_kernel_exit(i64 %block, i64 %desc) #1 {
  call void @stub_exit(i64 %block, i64 %desc)
  ret void
}

define void @__ldsan_kernel_enter_wave(i64 %block, i64 %desc) #1 {
  call void @stub_enter_wave(i64 %block)
  ret void
}

define void @__ldsan_kernel_exit_wave(i64 %block, i64 %desc) #1 {
  call void @stub_exit_wave(i64 %block)
  ret void
}

define void @stub_enter_wave(i64 %block) #0 {
  store i64 %block, ptr addrspace(1) @__ldsan_device_state, align 8
  ret void
}

define void @stub_exit_wave(i64 %block) #0 {
  store i64 %block, ptr addrspace(1) @__ldsan_device_state, align 8
  ret void
}

define i64 @stub_enter(i64 %size, i64 %desc) #0 {
  %s = load i64, ptr addrspace(1) @__ldsan_device_state, align 8
  %p = add i64 %s, %size
  ret i64 %p
}

define void @stub_exit(i64 %block, i64 %desc) #0 {
  store i64 %block, ptr addrspace(1) @__ldsan_device_state, align 8
  ret void
}

define void @__asan_poison_region(i64 %addr, i64 %size) #0 {
  ret void
}

define i64 @__asan_malloc_impl(i64 %size, i64 %pc) #0 {
  ret i64 0
}

define void @__asan_free_impl(i64 %ptr, i64 %pc) #0 {
  ret void
}

define void @__asan_report_load4(i64 %addr) #0 {
  call void @llvm.trap()
  ret void
}

define void @__asan_report_store4(i64 %addr) #0 {
  call void @llvm.trap()
  ret void
}

define void @stub_never_called() #0 {
  ret void
}

declare void @llvm.trap()
declare i64 @llvm.amdgcn.ballot.i64(i1)

attributes #0 = { nounwind "target-cpu"="generic" "amdgpu-no-workgroup-id-x" }
attributes #1 = { noinline nounwind "target-cpu"="generic" "amdgpu-no-workgroup-id-x" }

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"amdhsa_code_object_version", i32 400}
