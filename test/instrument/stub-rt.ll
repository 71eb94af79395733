; A stand-in for build/lib/ldsan-rt.bc, so the plugin tests do not depend on
; device/. Defines the entry points the plugin routes kernels to, a few ASan
; entry points, the device-state globals, and one function nobody calls
; (LinkOnlyNeeded must leave it out). The plugin inlines enter and exit into
; the kernels (InlineBlockCalls.h): their bodies call stub_enter/stub_exit
; (and stub_enter_wave/stub_exit_wave), so a test sees where they went.
target triple = "amdgcn-amd-amdhsa"

@__ldsan_device_state = addrspace(1) global [4 x i64] zeroinitializer, align 8
@__ldsan_builtin_channel = addrspace(1) global [16 x i8] zeroinitializer, align 8
@__ldsan_builtin_pool = addrspace(1) global [64 x i8] zeroinitializer, align 64
@llvm.used = appending addrspace(1) global [1 x ptr] [ptr @stub_never_called], section "llvm.metadata"

define i64 @__ldsan_kernel_enter(i64 %size, i64 %desc) #1 {
  %p = call i64 @stub_enter(i64 %size, i64 %desc)
  ret i64 %p
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

attributes #0 = { nounwind "target-cpu"="generic" "amdgpu-no-workgroup-id-x" }
attributes #1 = { noinline nounwind "target-cpu"="generic" "amdgpu-no-workgroup-id-x" }

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"amdhsa_code_object_version", i32 400}
