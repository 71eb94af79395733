/* ldsan CPU emulator, HIP layer: the one emulated device — count, selection,
 * properties and attributes (a plausible GPU of the target the program's
 * device code was built for, gfx90a:xnack+ by default, with 2 compute units),
 * plus device-wide synchronization.
 * Threading: read-only state; the current device is per thread (always 0). */
#include <stdio.h>
#include <string.h>

#include "hip_internal.h"

#define LDSAN_EMU_DEVICE_NAME "ldsan CPU emulator"
#define LDSAN_EMU_CU_COUNT 2
#define LDSAN_EMU_HIP_VERSION 50222000  /* the ROCm 5.2 headers this layer implements */

/* Validates a device ordinal; prints what exists when it is wrong. */
static hipError_t ldsan_emu_check_device(const char *api, int device) {
  if (device == 0) return hipSuccess;
  return ldsan_emu_hip_fail(hipErrorInvalidDevice, api,
                            "device %d does not exist: the CPU emulator provides only device 0", device);
}

int ldsan_emu_hip_current_device(void) { return 0; }

hipError_t hipInit(unsigned int flags) { (void)flags; return hipSuccess; }

hipError_t hipGetDeviceCount(int *count) {
  if (!count) return ldsan_emu_hip_set_error(hipErrorInvalidValue);
  *count = 1;
  return hipSuccess;
}

hipError_t hipSetDevice(int device) { return ldsan_emu_check_device("hipSetDevice", device); }

hipError_t hipGetDevice(int *device) {
  if (!device) return ldsan_emu_hip_set_error(hipErrorInvalidValue);
  *device = ldsan_emu_hip_current_device();
  return hipSuccess;
}

hipError_t hipDeviceGet(hipDevice_t *device, int ordinal) {
  if (!device) return ldsan_emu_hip_set_error(hipErrorInvalidValue);
  hipError_t err = ldsan_emu_check_device("hipDeviceGet", ordinal);
  if (err == hipSuccess) *device = ordinal;
  return err;
}

hipError_t hipChooseDevice(int *device, const hipDeviceProp_t *prop) {
  (void)prop;
  if (!device) return ldsan_emu_hip_set_error(hipErrorInvalidValue);
  *device = 0;
  return hipSuccess;
}

hipError_t hipSetDeviceFlags(unsigned flags) { (void)flags; return hipSuccess; }
hipError_t hipGetDeviceFlags(unsigned int *flags) {
  if (flags) *flags = 0;
  return hipSuccess;
}

/* Fills *p with the emulated device's properties. */
static void ldsan_emu_fill_props(hipDeviceProp_t *p) {
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "%s", LDSAN_EMU_DEVICE_NAME);
  snprintf(p->gcnArchName, sizeof p->gcnArchName, "%s", ldsan_emu_target()); /* the program's device code's */
  p->totalGlobalMem = (size_t)16 << 30;
  p->sharedMemPerBlock = LDSAN_EMU_LDS_PER_BLOCK;
  p->regsPerBlock = 65536;
  p->warpSize = (int)ldsan_emu_wave_size(); /* the program's device code's target: 32 on RDNA */
  p->maxThreadsPerBlock = (int)LDSAN_EMU_MAX_THREADS_PER_BLOCK;
  p->maxThreadsDim[0] = p->maxThreadsDim[1] = p->maxThreadsDim[2] = 1024;
  p->maxGridSize[0] = p->maxGridSize[1] = p->maxGridSize[2] = 0x7fffffff;
  p->clockRate = 1700000;         /* kHz */
  p->memoryClockRate = 1600000;   /* kHz */
  p->memoryBusWidth = 4096;
  p->totalConstMem = (size_t)16 << 30;
  p->major = 9;
  p->minor = 0;
  p->multiProcessorCount = LDSAN_EMU_CU_COUNT;
  p->l2CacheSize = 8 << 20;
  p->maxThreadsPerMultiProcessor = 2048;
  p->computeMode = 0;
  p->clockInstructionRate = 1000000;  /* kHz: clock64() counts microseconds * 1000 */
  p->arch.hasGlobalInt32Atomics = p->arch.hasGlobalFloatAtomicExch = 1;
  p->arch.hasSharedInt32Atomics = p->arch.hasSharedFloatAtomicExch = 1;
  p->arch.hasFloatAtomicAdd = p->arch.hasGlobalInt64Atomics = p->arch.hasSharedInt64Atomics = 1;
  p->arch.hasDoubles = p->arch.hasWarpVote = p->arch.hasWarpBallot = p->arch.hasWarpShuffle = 1;
  p->arch.hasFunnelShift = p->arch.hasThreadFenceSystem = p->arch.hasSyncThreadsExt = 1;
  p->arch.has3dGrid = 1;
  p->concurrentKernels = 0;       /* launches run one at a time */
  p->cooperativeLaunch = 1;       /* hipLaunchCooperativeKernel: every workgroup at once */
  p->maxSharedMemoryPerMultiProcessor = LDSAN_EMU_LDS_PER_BLOCK;
  p->canMapHostMemory = 1;
  p->gcnArch = 910;
  p->integrated = 1;              /* device memory is host memory */
  p->maxTexture1DLinear = p->maxTexture1D = 0;  /* no textures */
  p->memPitch = (size_t)1 << 31;
  p->textureAlignment = 256;
  p->texturePitchAlignment = 256;
  p->managedMemory = 1;
  p->directManagedMemAccessFromHost = 1;
  p->concurrentManagedAccess = 1;
  p->pageableMemoryAccess = 1;
  p->pageableMemoryAccessUsesHostPageTables = 1;
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int device) {
  if (!prop) return ldsan_emu_hip_fail(hipErrorInvalidValue, "hipGetDeviceProperties", "prop is NULL");
  hipError_t err = ldsan_emu_check_device("hipGetDeviceProperties", device);
  if (err == hipSuccess) ldsan_emu_fill_props(prop);
  return err;
}

hipError_t hipDeviceGetName(char *name, int len, hipDevice_t device) {
  if (!name || len <= 0) return ldsan_emu_hip_set_error(hipErrorInvalidValue);
  hipError_t err = ldsan_emu_check_device("hipDeviceGetName", device);
  if (err == hipSuccess) snprintf(name, (size_t)len, "%s", LDSAN_EMU_DEVICE_NAME);
  return err;
}

hipError_t hipDeviceComputeCapability(int *major, int *minor, hipDevice_t device) {
  if (!major || !minor) return ldsan_emu_hip_set_error(hipErrorInvalidValue);
  *major = 9;
  *minor = 0;
  return ldsan_emu_check_device("hipDeviceComputeCapability", device);
}

hipError_t hipDeviceTotalMem(size_t *bytes, hipDevice_t device) {
  if (!bytes) return ldsan_emu_hip_set_error(hipErrorInvalidValue);
  *bytes = (size_t)16 << 30;
  return ldsan_emu_check_device("hipDeviceTotalMem", device);
}

hipError_t hipDeviceGetAttribute(int *value, hipDeviceAttribute_t attr, int device) {
  if (!value) return ldsan_emu_hip_set_error(hipErrorInvalidValue);
  hipError_t err = ldsan_emu_check_device("hipDeviceGetAttribute", device);
  if (err != hipSuccess) return err;
  hipDeviceProp_t p;
  ldsan_emu_fill_props(&p);
  switch (attr) {
  case hipDeviceAttributeMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
  case hipDeviceAttributeMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
  case hipDeviceAttributeMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
  case hipDeviceAttributeMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
  case hipDeviceAttributeMaxGridDimX: *value = p.maxGridSize[0]; break;
  case hipDeviceAttributeMaxGridDimY: *value = p.maxGridSize[1]; break;
  case hipDeviceAttributeMaxGridDimZ: *value = p.maxGridSize[2]; break;
  case hipDeviceAttributeMaxSharedMemoryPerBlock: *value = (int)p.sharedMemPerBlock; break;
  case hipDeviceAttributeSharedMemPerBlockOptin: *value = (int)p.sharedMemPerBlock; break;
  case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor:
    *value = (int)p.maxSharedMemoryPerMultiProcessor; break;
  case hipDeviceAttributeWarpSize: *value = p.warpSize; break;
  case hipDeviceAttributeMultiprocessorCount: *value = p.multiProcessorCount; break;
  case hipDeviceAttributeMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
  case hipDeviceAttributeComputeCapabilityMajor: *value = p.major; break;
  case hipDeviceAttributeComputeCapabilityMinor: *value = p.minor; break;
  case hipDeviceAttributeClockRate: *value = p.clockRate; break;
  case hipDeviceAttributeMemoryClockRate: *value = p.memoryClockRate; break;
  case hipDeviceAttributeMemoryBusWidth: *value = p.memoryBusWidth; break;
  case hipDeviceAttributeMaxRegistersPerBlock: *value = p.regsPerBlock; break;
  case hipDeviceAttributeL2CacheSize: *value = p.l2CacheSize; break;
  case hipDeviceAttributeTotalConstantMemory: *value = 0x7fffffff; break;
  case hipDeviceAttributeIntegrated: *value = p.integrated; break;
  case hipDeviceAttributeCanMapHostMemory: *value = p.canMapHostMemory; break;
  case hipDeviceAttributeManagedMemory: *value = p.managedMemory; break;
  case hipDeviceAttributeConcurrentKernels: *value = p.concurrentKernels; break;
  case hipDeviceAttributeComputeMode: *value = p.computeMode; break;
  case hipDeviceAttributeGcnArch: *value = p.gcnArch; break;
  case hipDeviceAttributeUnifiedAddressing: *value = 1; break;
  case hipDeviceAttributeEccEnabled: *value = 0; break;
  case hipDeviceAttributeCooperativeLaunch: *value = 1; break;
  default:
    return ldsan_emu_hip_fail(hipErrorInvalidValue, "hipDeviceGetAttribute",
                              "attribute %d is not modelled by the CPU emulator", (int)attr);
  }
  return hipSuccess;
}

hipError_t hipDeviceGetLimit(size_t *value, enum hipLimit_t limit) {
  if (!value) return ldsan_emu_hip_set_error(hipErrorInvalidValue);
  (void)limit;
  *value = (size_t)64 << 20;
  return hipSuccess;
}

/* Kernels run to completion inside the launch call: there is never anything
 * in flight. A device fault earlier stays visible here, as on a GPU. */
hipError_t hipDeviceSynchronize(void) { return ldsan_emu_hip_set_error(ldsan_emu_hip_sticky()); }

hipError_t hipDeviceReset(void) { return hipSuccess; }

hipError_t hipDeviceSetCacheConfig(hipFuncCache_t config) { (void)config; return hipSuccess; }
hipError_t hipDeviceGetCacheConfig(hipFuncCache_t *config) {
  if (config) *config = hipFuncCachePreferNone;
  return hipSuccess;
}
hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig config) { (void)config; return hipSuccess; }
hipError_t hipDeviceGetSharedMemConfig(hipSharedMemConfig *config) {
  if (config) *config = hipSharedMemBankSizeFourByte;
  return hipSuccess;
}

hipError_t hipDeviceCanAccessPeer(int *can, int device, int peer) {
  (void)device; (void)peer;
  if (can) *can = 0;
  return hipSuccess;
}

hipError_t hipRuntimeGetVersion(int *version) {
  if (!version) return ldsan_emu_hip_set_error(hipErrorInvalidValue);
  *version = LDSAN_EMU_HIP_VERSION;
  return hipSuccess;
}

hipError_t hipDriverGetVersion(int *version) {
  if (!version) return ldsan_emu_hip_set_error(hipErrorInvalidValue);
  *version = LDSAN_EMU_HIP_VERSION;
  return hipSuccess;
}
