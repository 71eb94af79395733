/* ldsan-hip-compat.h: what ROCm 5.2's HIP headers take from clang's HIP
 * wrapper headers and predefined macros and clang 22 no longer provides. ldsan-cc pre-includes it
 * (-include) in HIP compiles; it declares nothing clang 22 still declares.
 *
 * amd_hip_fp16.h (hrcp, h2rcp) calls __llvm_amdgcn_rcp_f16 and
 * __llvm_amdgcn_rcp_2f16; its own declarations (hip_fp16_math_fwd.h) are
 * skipped under clang's wrapper (__CLANG_HIP_RUNTIME_WRAPPER_INCLUDED__), and
 * clang 22's __clang_hip_libdevice_declares.h dropped them. Both are the
 * hardware f16 reciprocal (v_rcp_f16), per element for the pair. */
#ifndef LDSAN_HIP_COMPAT_H
#define LDSAN_HIP_COMPAT_H

/* ROCm 5.2's headers size warpSize (and their wave functions) by
 * __AMDGCN_WAVEFRONT_SIZE, which clang 22 no longer defines. A device compile
 * gets its target's wave size: 32 on gfx10-gfx12 (RDNA's default), unless the
 * build asks for wave64 (ldsan-cc defines __LDSAN_WAVEFRONT_SIZE=64 for
 * -mwavefrontsize64), and 64 on gfx9 (CDNA). The host compile gets 64, as
 * hipcc's did. */
#ifndef __AMDGCN_WAVEFRONT_SIZE
#if defined(__LDSAN_WAVEFRONT_SIZE)
#define __AMDGCN_WAVEFRONT_SIZE __LDSAN_WAVEFRONT_SIZE
#elif defined(__HIP_DEVICE_COMPILE__) && (defined(__GFX10__) || defined(__GFX11__) || defined(__GFX12__))
#define __AMDGCN_WAVEFRONT_SIZE 32
#else
#define __AMDGCN_WAVEFRONT_SIZE 64
#endif
#endif
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
