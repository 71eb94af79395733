// Bug: each workgroup reverses one string through a 13-byte LDS buffer and also
// stores the terminating NUL; string 1 has 13 characters, so its NUL is a
// 1-byte overrun inside the buffer's last, partially addressable 8-byte granule.
// EXPECT: lds-buffer-overflow
// EXPECT-ACCESS: WRITE of size 1
// EXPECT-WORKITEM: (13,0,0)
// EXPECT-WORKGROUP: (1,0,0)
// EXPECT-KERNEL: reverse_names
// EXPECT-VAR: name
// EXPECT-LOCATION: 0 bytes after
// EXPECT-EXIT: 1
// Run with symbolize=0: the frame is the bare pc in the executable.
// ENV: LDSAN_OPTIONS=color=never:symbolize=0
// EXPECT-FRAME: bare
#include "common.h"

#define STRIDE 16
__global__ void reverse_names(const char *src, const int *lens, char *dst) {
  __shared__ char name[13];
  int t = threadIdx.x, len = lens[blockIdx.x];
  const char *s = src + blockIdx.x * STRIDE;
  if (t <= len) name[t] = t < len ? s[t] : '\0';  // BUG: len + 1 bytes into 13
  __syncthreads();
  if (t < len) dst[blockIdx.x * STRIDE + t] = name[len - 1 - t];
}

int main() {
  const char strings[3][STRIDE] = {"short", "hello, ldsan!", "seven.."};
  const int lens[3] = {5, 13, 7};
  char *dsrc, *ddst;
  int *dlens;
  HIP_CHECK(hipMalloc(&dsrc, sizeof strings));
  HIP_CHECK(hipMalloc(&ddst, sizeof strings));
  HIP_CHECK(hipMalloc(&dlens, sizeof lens));
  HIP_CHECK(hipMemcpy(dsrc, strings, sizeof strings, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dlens, lens, sizeof lens, hipMemcpyHostToDevice));
  void *args[] = {&dsrc, &dlens, &ddst};
  HIP_CHECK(hipLaunchKernel((const void *)reverse_names, dim3(3), dim3(STRIDE), args, 0, 0));
  LAUNCH_CHECK();
  printf("bug_char_overrun: no error detected\n");
  return 0;
}
