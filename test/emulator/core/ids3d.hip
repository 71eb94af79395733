// emulator core test kernel: 3-D work-item/workgroup ids and sizes (blockDim and
// gridDim come from the COV5 implicit-argument block through ockl).
#include <hip/hip_runtime.h>

extern "C" __global__ void ids(unsigned *out) {
  unsigned gx = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned gy = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned gz = blockIdx.z * blockDim.z + threadIdx.z;
  unsigned nx = gridDim.x * blockDim.x, ny = gridDim.y * blockDim.y;
  unsigned *o = out + 4 * (gx + nx * (gy + ny * gz));
  o[0] = threadIdx.x | threadIdx.y << 10 | threadIdx.z << 20;
  o[1] = blockIdx.x | blockIdx.y << 10 | blockIdx.z << 20;
  o[2] = blockDim.x | blockDim.y << 10 | blockDim.z << 20;
  o[3] = gridDim.x | gridDim.y << 10 | gridDim.z << 20;
}
