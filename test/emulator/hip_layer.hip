// Unit test of the emulated HIP runtime (libldsan-emu-hip.a) against a fake
// core (fake_core.c): registration, <<<>>> and hipLaunchKernelGGL argument and
// configuration passing, symbols, memory, device properties, streams, events
// and error reporting. Run by hip_layer.sh; `./hip_layer unsupported` checks
// that an unimplemented API aborts naming itself.
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <string.h>

extern "C" __global__ void scale(float *p, int n, float f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= f;
}
__device__ int table[4];
extern "C" __global__ void add_table(int *p) { p[threadIdx.x] += table[threadIdx.x % 4]; }
extern "C" __global__ void trap_kernel() { __builtin_trap(); }
extern "C" __global__ void not_in_image() {}

extern "C" uint32_t fake_last_grid[3], fake_last_block[3], fake_last_dynamic_lds, fake_last_flags;
extern "C" unsigned fake_launch_count, fake_after_trap_count;

static int failures;
#define CHECK(cond)                                                                   \
  do {                                                                                \
    if (!(cond)) { fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); failures++; } \
  } while (0)
#define CHECK_EQ(a, b)                                                                \
  do {                                                                                \
    long long va_ = (long long)(a), vb_ = (long long)(b);                             \
    if (va_ != vb_) { fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s (%lld vs %lld)\n", __FILE__, \
                              __LINE__, #a, #b, va_, vb_); failures++; }              \
  } while (0)

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "unsupported") == 0) {
    hipModule_t m;
    (void)hipModuleLoad(&m, "x.co");
    return 0;
  }
  // Device.
  int n = 0, dev = -1;
  CHECK_EQ(hipGetDeviceCount(&n), hipSuccess);
  CHECK_EQ(n, 1);
  CHECK_EQ(hipSetDevice(0), hipSuccess);
  CHECK_EQ(hipGetDevice(&dev), hipSuccess);
  CHECK_EQ(dev, 0);
  CHECK_EQ(hipSetDevice(1), hipErrorInvalidDevice);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidDevice);
  CHECK_EQ(hipGetLastError(), hipSuccess);
  hipDeviceProp_t prop;
  CHECK_EQ(hipGetDeviceProperties(&prop, 0), hipSuccess);
  CHECK(strcmp(prop.name, "ldsan CPU emulator") == 0);
  CHECK(strcmp(prop.gcnArchName, "gfx90a:xnack+") == 0);
  CHECK_EQ(prop.warpSize, 64);
  CHECK_EQ(prop.maxThreadsPerBlock, 1024);
  CHECK_EQ(prop.sharedMemPerBlock, 65536);
  CHECK_EQ(prop.multiProcessorCount, 2);
  int attr = 0;
  CHECK_EQ(hipDeviceGetAttribute(&attr, hipDeviceAttributeWarpSize, 0), hipSuccess);
  CHECK_EQ(attr, 64);
  CHECK(strcmp(hipGetErrorString(hipErrorInvalidValue), "invalid argument") == 0);
  CHECK(strcmp(hipGetErrorName(hipErrorInvalidDevice), "hipErrorInvalidDevice") == 0);

  // Memory and <<<>>> with dynamic LDS.
  const int N = 300;
  float h[N], *d = nullptr;
  for (int i = 0; i < N; i++) h[i] = (float)i;
  CHECK_EQ(hipMalloc(&d, N * sizeof(float)), hipSuccess);
  CHECK_EQ((uintptr_t)d % 256, 0);
  CHECK_EQ(hipMemcpy(d, h, sizeof h, hipMemcpyHostToDevice), hipSuccess);
  scale<<<dim3(3, 1, 1), dim3(128, 1, 1), 1000>>>(d, N, 2.0f);
  CHECK_EQ(hipGetLastError(), hipSuccess);
  CHECK_EQ(fake_last_grid[0], 3);
  CHECK_EQ(fake_last_block[0], 128);
  CHECK_EQ(fake_last_dynamic_lds, 1000);
  hipLaunchKernelGGL(scale, dim3(2, 3, 4), dim3(4, 2, 1), 24, 0, d, N, 0.5f);
  CHECK_EQ(fake_last_grid[1], 3);
  CHECK_EQ(fake_last_grid[2], 4);
  CHECK_EQ(fake_last_block[1], 2);
  CHECK_EQ(fake_last_dynamic_lds, 24);
  CHECK_EQ(fake_last_flags, 0u);
  CHECK_EQ(hipMemcpy(h, d, sizeof h, hipMemcpyDefault), hipSuccess);
  // The fake core ignores y/z ids: the 3-D launch halved h[0..7] 3*4*2 = 24 times.
  CHECK(h[7] == 14.0f / (1 << 24));
  CHECK_EQ((int)h[8], 16);
  CHECK_EQ((int)h[299], 598);

  // Cooperative launches: all workgroups at once, when they fit (2 CUs x 2048 work-items).
  int coop = 0;
  CHECK_EQ(hipDeviceGetAttribute(&coop, hipDeviceAttributeCooperativeLaunch, 0), hipSuccess);
  CHECK_EQ(coop, 1);
  float one = 1.0f;
  int zero = 0;
  void *cargs[] = {&d, &zero, &one};
  unsigned launches = fake_launch_count;
  CHECK_EQ(hipLaunchCooperativeKernel((const void *)scale, dim3(32), dim3(128), cargs, 0, 0), hipSuccess);
  CHECK_EQ(fake_last_flags, 1u);  // LDSAN_EMU_LAUNCH_COOPERATIVE (include/ldsan/emu/emu.h)
  CHECK_EQ(fake_launch_count, launches + 1);
  CHECK_EQ(hipLaunchCooperativeKernel((const void *)scale, dim3(33), dim3(128), cargs, 0, 0),
           hipErrorCooperativeLaunchTooLarge);
  CHECK_EQ(fake_launch_count, launches + 1);
  (void)hipGetLastError();

  // Symbols.
  int tab[4] = {10, 20, 30, 40}, back[4] = {0};
  CHECK_EQ(hipMemcpyToSymbol(HIP_SYMBOL(table), tab, sizeof tab), hipSuccess);
  CHECK_EQ(hipMemcpyFromSymbol(back, HIP_SYMBOL(table), 8, 8), hipSuccess);
  CHECK_EQ(back[0], 30);
  CHECK_EQ(back[1], 40);
  CHECK_EQ(hipMemcpyToSymbol(HIP_SYMBOL(table), tab, 8, 12), hipErrorInvalidValue);
  CHECK_EQ(hipMemcpyToSymbol((const void *)&n, tab, 4), hipErrorInvalidSymbol);
  size_t sz = 0;
  CHECK_EQ(hipGetSymbolSize(&sz, HIP_SYMBOL(table)), hipSuccess);
  CHECK_EQ(sz, 16);
  int *di;
  CHECK_EQ(hipMalloc(&di, 8 * sizeof(int)), hipSuccess);
  CHECK_EQ(hipMemsetD32(di, 1, 8), hipSuccess);
  add_table<<<1, 8>>>(di);
  int hi[8];
  CHECK_EQ(hipMemcpy(hi, di, sizeof hi, hipMemcpyDeviceToHost), hipSuccess);
  CHECK_EQ(hi[0], 11);
  CHECK_EQ(hi[7], 41);
  CHECK_EQ(hipMemset(di, 0xff, 8), hipSuccess);
  CHECK_EQ(hipMemcpy(hi, di, 12, hipMemcpyDeviceToHost), hipSuccess);
  CHECK_EQ(hi[0], -1);
  CHECK_EQ(hi[2], 31);
  CHECK_EQ(hipMemcpy(hi, di, 4, (hipMemcpyKind)7), hipErrorInvalidMemcpyDirection);
  int pitched[2][3] = {{1, 2, 3}, {4, 5, 6}}, dst2[2][2] = {{0}};
  CHECK_EQ(hipMemcpy2D(dst2, 2 * sizeof(int), pitched, 3 * sizeof(int), 2 * sizeof(int), 2,
                       hipMemcpyHostToHost), hipSuccess);
  CHECK_EQ(dst2[1][1], 5);

  // Streams and events.
  hipStream_t s;
  hipEvent_t e0, e1;
  CHECK_EQ(hipStreamCreate(&s), hipSuccess);
  CHECK_EQ(hipEventCreate(&e0), hipSuccess);
  CHECK_EQ(hipEventCreate(&e1), hipSuccess);
  CHECK_EQ(hipEventRecord(e0, s), hipSuccess);
  scale<<<1, 64, 0, s>>>(d, N, 1.0f);
  CHECK_EQ(hipMemcpyAsync(h, d, 16, hipMemcpyDeviceToHost, s), hipSuccess);
  CHECK_EQ(hipEventRecord(e1, s), hipSuccess);
  CHECK_EQ(hipStreamSynchronize(s), hipSuccess);
  float ms = -1;
  CHECK_EQ(hipEventElapsedTime(&ms, e0, e1), hipSuccess);
  CHECK(ms >= 0);
  CHECK_EQ(hipEventDestroy(e0), hipSuccess);
  CHECK_EQ(hipEventDestroy(e1), hipSuccess);
  CHECK_EQ(hipStreamDestroy(s), hipSuccess);

  // Launch errors: bad configuration, missing device code, then a device fault (sticky).
  unsigned before = fake_launch_count;
  scale<<<1, 2048>>>(d, N, 1.0f);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidConfiguration);
  scale<<<dim3(1, 0, 1), 64>>>(d, N, 1.0f);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidConfiguration);
  scale<<<1, 64, 70000>>>(d, N, 1.0f);
  CHECK_EQ(hipGetLastError(), hipErrorInvalidValue);
  not_in_image<<<1, 1>>>();
  CHECK_EQ(hipGetLastError(), hipErrorInvalidDeviceFunction);
  CHECK_EQ(fake_launch_count, before);
  CHECK_EQ(hipDeviceSynchronize(), hipSuccess);
  CHECK_EQ(fake_after_trap_count, 0);  // invalid launches are no trap
  trap_kernel<<<1, 1>>>();
  CHECK_EQ(fake_after_trap_count, 1);  // the core decides whether the process ends
  CHECK_EQ(hipGetLastError(), hipErrorLaunchFailure);
  CHECK_EQ(hipDeviceSynchronize(), hipErrorLaunchFailure);
  CHECK_EQ(hipGetLastError(), hipErrorLaunchFailure);  // sticky: never cleared
  CHECK_EQ(hipMemcpy(h, d, 4, hipMemcpyDeviceToHost), hipErrorLaunchFailure);
  CHECK_EQ(hipFree(d), hipSuccess);
  CHECK_EQ(hipFree(di), hipSuccess);
  if (failures) fprintf(stderr, "hip_layer: %d check(s) failed\n", failures);
  else printf("hip_layer: all checks passed\n");
  return failures != 0;
}
