// Clean: four host threads each launch a kernel with LDS ten times (on their
// own streams' default), check their results, and exit before main does. With
// LeakSanitizer on (the default), a launching thread's emulator state must go
// with the thread: the program exits 0 with no leak report.
// RUN: %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:' --implicit-check-not=LeakSanitizer
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:' --implicit-check-not=LeakSanitizer
// RUN: %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:' --implicit-check-not=LeakSanitizer
// RUN: env LDSAN_OPTIONS=emu_fibers=1 %run %{exe:lds-only+wave32} | FileCheck %s --implicit-check-not='ERROR: AddressSanitizer' --implicit-check-not='ldsan-emu: error:' --implicit-check-not=LeakSanitizer
// CHECK: ldsan-test: stdout:
// CHECK: clean_threads: PASSED
// CHECK: ldsan-test: exit 0
#include <hip/hip_runtime.h>
#include <cstdio>
#include <thread>
#include <vector>

__global__ void reverse64(int *data) {
  __shared__ int tile[64];
  tile[threadIdx.x] = data[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  data[blockIdx.x * 64 + threadIdx.x] = tile[63 - threadIdx.x];
}

static int worker(int seed) {
  std::vector<int> host(4 * 64), back(4 * 64);
  for (int i = 0; i < 4 * 64; i++) host[i] = seed * 1000 + i;
  int *d = nullptr, bad = 0;
  if (hipMalloc(&d, host.size() * sizeof(int)) != hipSuccess) return 1;
  for (int round = 0; round < 10; round++) {
    hipMemcpy(d, host.data(), host.size() * sizeof(int), hipMemcpyHostToDevice);
    hipLaunchKernelGGL(reverse64, dim3(4), dim3(64), 0, 0, d);
    hipMemcpy(back.data(), d, back.size() * sizeof(int), hipMemcpyDeviceToHost);
    for (int i = 0; i < 4 * 64; i++) bad += back[i] != host[(i / 64) * 64 + 63 - i % 64];
  }
  hipFree(d);
  return bad;
}

int main() {
  int bad[4] = {0, 0, 0, 0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; t++) threads.emplace_back([t, &bad] { bad[t] = worker(t + 1); });
  for (std::thread &t : threads) t.join();
  int total = bad[0] + bad[1] + bad[2] + bad[3];
  std::printf("clean_threads: %s (%d wrong)\n", total ? "FAILED" : "PASSED", total);
  return total != 0;
}
