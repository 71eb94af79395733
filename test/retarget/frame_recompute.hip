// What the work-item loops keep per work-item between barriers
// (frame_recompute.sh): a templated LDS tree reduction that also reads a
// __device__ scale table and counts its workgroups in a __device__ counter.
// Every value its regions share is recomputable from the work-item's ids,
// the kernel's arguments or the LDS block pointer, so neither its group
// function nor the LDS checks' copy should keep any bytes per work-item
// (the checks do not track global variables: the layout table of
// amdgpu-sw-lower-lds would look written and every value loaded from it
// would be kept).
#include "common.h"
#include <vector>

__device__ const float scale[4] = {1.0f, 2.0f, 0.5f, 4.0f};
__device__ unsigned groups_done;

template <int BS>
__global__ void tree_sum(const float *in, float *out) {
  __shared__ float buf[BS];
  int t = threadIdx.x;
  buf[t] = in[blockIdx.x * BS + t] * scale[blockIdx.x & 3];
  __syncthreads();
  for (int s = BS / 2; s > 0; s >>= 1) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) {
    out[blockIdx.x] = buf[0];
    atomicAdd(&groups_done, 1u);
  }
}

template <int BS>
static void run(const char *name, int groups) {
  std::vector<float> in((size_t)groups * BS), out(groups), want(groups);
  const float sc[4] = {1.0f, 2.0f, 0.5f, 4.0f};
  for (size_t i = 0; i < in.size(); i++) in[i] = (float)(i % 5);
  for (int g = 0; g < groups; g++) {
    float s = 0;
    for (int t = 0; t < BS; t++) s += in[(size_t)g * BS + t] * sc[g & 3];
    want[g] = s;
  }
  float *din, *dout;
  HIP_CHECK(hipMalloc(&din, in.size() * sizeof(float)));
  HIP_CHECK(hipMalloc(&dout, out.size() * sizeof(float)));
  HIP_CHECK(hipMemcpy(din, in.data(), in.size() * sizeof(float), hipMemcpyHostToDevice));
  unsigned zero = 0, done = 0;
  HIP_CHECK(hipMemcpyToSymbol(HIP_SYMBOL(groups_done), &zero, sizeof zero));
  tree_sum<BS><<<groups, BS>>>(din, dout);
  LAUNCH_CHECK();
  HIP_CHECK(hipMemcpy(out.data(), dout, out.size() * sizeof(float), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpyFromSymbol(&done, HIP_SYMBOL(groups_done), sizeof done));
  check_equal(name, out.data(), want.data(), out.size());
  if (done != (unsigned)groups) {
    fprintf(stderr, "%s: %u workgroups counted, expected %d\n", name, done, groups);
    exit(4);
  }
  HIP_CHECK(hipFree(din));
  HIP_CHECK(hipFree(dout));
}

int main() {
  run<128>("tree_sum<128>", 37);
  run<256>("tree_sum<256>", 21);
  passed("frame_recompute");
  return 0;
}
