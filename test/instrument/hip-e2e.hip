// End to end through clang: -fpass-plugin on a HIP device compile lowers LDS
// right after ASan, emits descriptors with debug names and file:line, and
// links the (stub) runtime. Skipped when the HIP headers are not installed.
// REQUIRES: hip-headers
// RUN: LDSAN_RUNTIME=%S/stub-rt.ll hip-device -O2 -g -emit-llvm -S %s -o %t.ll
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: llc -mcpu=gfx90a -mattr=+xnack -filetype=obj %t.ll -o %t.o
// RUN: llvm-objcopy -O binary --only-section=.ldsan_lds_desc %t.o %t.desc
// RUN: desc-dump %t.desc | FileCheck %s --check-prefix=DESC
// Code generation through clang (assembly: the stub runtime cannot be linked).
// RUN: LDSAN_RUNTIME=%S/stub-rt.ll hip-device -O2 -S %s -o - | FileCheck %s --check-prefix=ASM
// Without a runtime the compile fails with ldsan's error.
// RUN: LDSAN_RUNTIME=%t.none not hip-device -O2 -emit-llvm -S %s -o %t.fail.ll 2>&1 | FileCheck %s --check-prefix=NORT
#include <hip/hip_runtime.h>

__global__ void k1(int *out, int n) {
  __shared__ int tile[64];
  __shared__ float other[10];
  tile[threadIdx.x] = threadIdx.x;
  other[threadIdx.x % 10] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x + n] + (int)other[3];
}

extern __shared__ char dyn[];
__global__ void k2(int *out) {
  dyn[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = dyn[threadIdx.x + 1];
}

__global__ void k3(int *out) { out[threadIdx.x] = 7; }

// IR: @__ldsan_kdesc._Z2k1Pii = internal addrspace(1) constant
// IR: @__ldsan_kdesc._Z2k2Pi = internal addrspace(1) constant
// IR-NOT: @__ldsan_kdesc._Z2k3Pi
// The runtime's enter and exit are inlined into the kernel (InlineBlockCalls.h).
// IR: call i64 @stub_enter(i64 448, i64 ptrtoint (ptr addrspace(1) @__ldsan_kdesc._Z2k1Pii to i64))
// IR: call void @stub_exit_wave(i64 %{{[0-9]+}})
// IR-NOT: @__ldsan_kernel_enter
// IR: define internal i64 @stub_enter(
// IR: !"ldsan.instrumented"

// DESC: kernel _Z2k1Pii abi={{[0-9]+}} total={{[0-9]+}} vars=3 static_size=448 max_align=16 flags={{$}}
// DESC-NEXT: var 0: offset=0 size=8 redzone=24 align=8 flags=S
// DESC-NEXT: var 1: offset=32 size=256 redzone=64 align=16 flags= name=_ZZ2k1PiiE4tile source=tile at={{.*}}hip-e2e.hip:17
// DESC-NEXT: var 2: offset=352 size=40 redzone=56 align=16 flags= name=_ZZ2k1PiiE5other source=other at={{.*}}hip-e2e.hip:18
// DESC-NEXT: shadow: e5 e1 e1 e1 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 e1 e1 e1 e1 e1 e1 e1 e1 00 00 00 00 00 e1 e1 e1 e1 e1 e1 e1
// extern __shared__ has no debug-info variable: no source name or line.
// DESC-NEXT: kernel _Z2k2Pi abi={{[0-9]+}} total={{[0-9]+}} vars=2 static_size=32 max_align=1 flags=D{{$}}
// DESC-NEXT: var 0: offset=0 size=8 redzone=24 align=8 flags=S
// DESC-NEXT: var 1: offset=32 size=0 redzone=0 align=1 flags=D name=dyn source=- at=-:0
// DESC-NEXT: shadow: e5 e1 e1 e1
// DESC-NOT: kernel

// ASM: s_getpc_b64
// ASM: __ldsan_kdesc._Z2k1Pii@rel32@lo
// ASM: .section .ldsan_lds_desc
// ASM: __ldsan_kdesc._Z2k1Pii:

// NORT: error: ldsan: error: cannot read the ldsan device runtime '{{.*}}.none': No such file or directory; run 'make' in the ldsan tree or set LDSAN_RUNTIME
