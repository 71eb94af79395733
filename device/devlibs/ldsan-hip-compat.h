/* ldsan-hip-compat.h: declarations ROCm 5.2's HIP headers take from clang's HIP
 * wrapper headers and clang 22 no longer provides. ldsan-cc pre-includes it
 * (-include) in HIP compiles; it declares nothing clang 22 still declares.
 *
 * amd_hip_fp16.h (hrcp, h2rcp) calls __llvm_amdgcn_rcp_f16 and
 * __llvm_amdgcn_rcp_2f16; its own declarations (hip_fp16_math_fwd.h) are
 * skipped under clang's wrapper (__CLANG_HIP_RUNTIME_WRAPPER_INCLUDED__), and
 * clang 22's __clang_hip_libdevice_declares.h dropped them. Both are the
 * hardware f16 reciprocal (v_rcp_f16), per element for the pair. */
#ifndef LDSAN_HIP_COMPAT_H
#define LDSAN_HIP_COMPAT_H
#if defined(__HIP__) && defined(__cplusplus)

extern "C" {
__attribute__((device, const)) static inline _Float16 __llvm_amdgcn_rcp_f16(_Float16 __x) {
#if defined(__HIP_DEVICE_COMPILE__)
  return __builtin_amdgcn_rcph(__x);
#else
  return (_Float16)(1.0f / (float)__x); /* never emitted for the host: device-only */
#endif
}

typedef _Float16 __ldsan_2f16 __attribute__((ext_vector_type(2)));
__attribute__((device, const)) static inline __ldsan_2f16 __llvm_amdgcn_rcp_2f16(__ldsan_2f16 __x) {
  return __ldsan_2f16{__llvm_amdgcn_rcp_f16(__x.x), __llvm_amdgcn_rcp_f16(__x.y)};
}
}

#endif /* __HIP__ && __cplusplus */
#endif /* LDSAN_HIP_COMPAT_H */
