// The LDS-only mode (ldsan-cc -fsanitize=lds sets LDSAN_LDS_ONLY=1): a device
// compile without AddressSanitizer, for targets without xnack (gfx90a) and for
// RDNA (gfx1100, wave32), still gets ldsan's LDS lowering, descriptors and
// runtime; the lowered accesses' inline checks take their shadow offset from
// the LDS-only runtime (ldsan's own shadow of its pool), never ASan's
// 0x7FFF8000 (2147450880), and the plugin's sanitize_address marks are gone.
// The device state's initial flags are 9: halt_on_error (1) and own shadow (8).
// RUN: LDSAN_LDS_ONLY=1 LDSAN_RUNTIME_LDS=%rt-lds hip-device-plain --offload-arch=gfx1100 -O2 -emit-llvm -S %s -o %t.ll
// RUN: FileCheck %s --check-prefixes=IR,O2 < %t.ll
// RUN: FileCheck %s --check-prefix=NOASAN < %t.ll
// RUN: llc -mcpu=gfx1100 -filetype=obj %t.ll -o %t.o
// RUN: llvm-objcopy -O binary --only-section=.ldsan_lds_desc %t.o %t.desc
// RUN: desc-dump %t.desc | FileCheck %s --check-prefix=DESC
// RUN: LDSAN_LDS_ONLY=1 LDSAN_RUNTIME_LDS=%rt-lds hip-device-plain --offload-arch=gfx90a -O0 -emit-llvm -S %s -o %t.O0.ll
// At -O0 the accesses are flat (through an addrspacecast of the variable): no
// ASan pass checks them here, so each calls __ldsan_flat_lds_access (4 bytes,
// stores with LDSAN_LDS_CHECK_STORE: -2147483644), which checks an address in
// ldsan's store in its shadow.
// RUN: FileCheck %s --check-prefixes=IR,O0 < %t.O0.ll
// RUN: FileCheck %s --check-prefix=NOASAN < %t.O0.ll
// Without the mode the plugin leaves an unsanitized module alone.
// RUN: hip-device-plain --offload-arch=gfx1100 -O2 -emit-llvm -S %s -o - | FileCheck %s --check-prefix=OFF
// A module whose kernels use no LDS gets nothing: no runtime, no state.
// RUN: LDSAN_LDS_ONLY=1 LDSAN_RUNTIME_LDS=%rt-lds hip-device-plain --offload-arch=gfx1100 -DNO_LDS -O2 -emit-llvm -S %s -o - | FileCheck %s --check-prefix=OFF
// The wrong runtime (the full-ASan one has no own shadow) is refused by name.
// RUN: LDSAN_LDS_ONLY=1 LDSAN_RUNTIME_LDS=%rt-full not hip-device-plain --offload-arch=gfx1100 -O2 -emit-llvm -S %s -o %t.bad.ll 2>&1 | FileCheck %s --check-prefix=BADRT
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))

#ifndef NO_LDS
__global__ void tiles(int *out, int n) {
  __shared__ int tile[64];
  unsigned t = __builtin_amdgcn_workitem_id_x();
  tile[t] = (int)t;
  __builtin_amdgcn_s_barrier();
  out[t] = tile[t + n];
}
#else
__global__ void plain(int *out) { out[__builtin_amdgcn_workitem_id_x()] = 1; }
#endif

// IR-DAG: @__ldsan_device_state = weak_odr protected addrspace(1) global {{.*}} { i32 {{[0-9]+}}, i32 9,
// IR-DAG: @__ldsan_builtin_pool_shadow = weak_odr protected addrspace(1) global [1048576 x i8]
// IR-DAG: @__ldsan_kdesc._Z5tilesPii =
// IR-LABEL: define {{.*}}amdgpu_kernel void @_Z5tilesPii(
// O2: call void @__asan_report_load4(
// O0: call void @__ldsan_flat_lds_access(i64 %{{[0-9]+}}, i32 -2147483644)
// O0: call void @__ldsan_flat_lds_access(i64 %{{[0-9]+}}, i32 4)
// O0-LABEL: define internal void @__ldsan_flat_lds_access(
// NOASAN-NOT: 2147450880
// NOASAN-NOT: call {{.*}}@__ldsan_own_shadow_offset(
// NOASAN-NOT: {{ }}sanitize_address{{ |$}}
// DESC: kernel _Z5tilesPii
// DESC: var 1: offset=32 size=256 redzone=64 align=16 flags= name=_ZZ5tilesPiiE4tile
// OFF-NOT: __ldsan
// OFF-NOT: __asan
// BADRT: error: ldsan: error: the device runtime does not define __ldsan_own_shadow_offset: it is not the LDS-only runtime (ldsan-rt-lds.bc)
