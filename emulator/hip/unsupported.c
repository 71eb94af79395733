/* ldsan CPU emulator, HIP layer: HIP APIs a program may call that the CPU
 * emulator does not implement. Each fails loudly, naming itself, and aborts:
 * pretending to succeed would let a program compute garbage silently. APIs
 * missing from this list and from the layer fail at link time, naming the
 * symbol. This file deliberately does not include the HIP headers: the stubs
 * never read their arguments, so one signature fits all.
 * Threading: stateless. */
#include <stdio.h>
#include <stdlib.h>

/* One row per API: modules and JIT, cooperative groups, arrays and textures,
 * graphs and capture, memory pools and advice, IPC and peers, contexts,
 * the pre-<<<>>> launch API and newer versioned entry points. */
#define LDSAN_EMU_UNSUPPORTED(X)                                                                   \
  X(hipModuleLoad) X(hipModuleLoadData) X(hipModuleLoadDataEx) X(hipModuleUnload)                 \
  X(hipModuleGetFunction) X(hipModuleGetGlobal) X(hipModuleLaunchKernel)                          \
  X(hipExtModuleLaunchKernel) X(hipHccModuleLaunchKernel) X(hipModuleOccupancyMaxPotentialBlockSize) \
  X(hipLaunchCooperativeKernelMultiDevice)                                                        \
  X(hipExtLaunchMultiKernelMultiDevice) X(hipLaunchByPtr) X(hipConfigureCall) X(hipSetupArgument) \
  X(hipLaunchHostFunc)                                                                            \
  X(hipMallocArray) X(hipMalloc3D) X(hipMalloc3DArray) X(hipFreeArray) X(hipMemcpy3D)            \
  X(hipMemcpy3DAsync) X(hipMemcpyToArray) X(hipMemcpyFromArray) X(hipMemcpy2DToArray)            \
  X(hipMemcpy2DFromArray) X(hipMemcpyParam2D) X(hipMemcpyParam2DAsync) X(hipMemcpyAtoH)          \
  X(hipMemcpyHtoA) X(hipCreateTextureObject) X(hipDestroyTextureObject)                           \
  X(hipCreateSurfaceObject) X(hipDestroySurfaceObject) X(hipBindTexture) X(hipBindTexture2D)      \
  X(hipBindTextureToArray) X(hipUnbindTexture) X(hipCreateChannelDesc)                            \
  X(hipGraphCreate) X(hipGraphDestroy) X(hipGraphInstantiate) X(hipGraphLaunch)                   \
  X(hipGraphExecDestroy) X(hipGraphAddKernelNode) X(hipStreamBeginCapture) X(hipStreamEndCapture) \
  X(hipStreamIsCapturing) X(hipStreamGetCaptureInfo)                                              \
  X(hipMemPrefetchAsync) X(hipMemAdvise) X(hipMemRangeGetAttribute) X(hipStreamAttachMemAsync)   \
  X(hipMemPoolCreate) X(hipMemPoolDestroy) X(hipDeviceGetMemPool) X(hipDeviceGetDefaultMemPool)  \
  X(hipMallocFromPoolAsync) X(hipExtMallocWithFlags) X(hipPointerGetAttributes)                   \
  X(hipPointerGetAttribute) X(hipMemPtrGetInfo)                                                   \
  X(hipIpcGetMemHandle) X(hipIpcOpenMemHandle) X(hipIpcCloseMemHandle) X(hipIpcGetEventHandle)   \
  X(hipIpcOpenEventHandle) X(hipDeviceEnablePeerAccess) X(hipDeviceDisablePeerAccess)             \
  X(hipMemcpyPeerAsync) X(hipDeviceGetP2PAttribute)                                               \
  X(hipCtxCreate) X(hipCtxDestroy) X(hipCtxSetCurrent) X(hipCtxGetCurrent) X(hipCtxPushCurrent)  \
  X(hipCtxPopCurrent) X(hipDevicePrimaryCtxRetain) X(hipDevicePrimaryCtxRelease)                  \
  X(hipStreamWaitValue32) X(hipStreamWaitValue64) X(hipStreamWriteValue32)                        \
  X(hipStreamWriteValue64) X(hipDeviceGetPCIBusId) X(hipDeviceGetByPCIBusId) X(hipDeviceGetUuid)  \
  X(hipGetDevicePropertiesR0600) X(hipGetDevicePropertiesR0000) X(hipExtStreamCreateWithCUMask)  \
  X(hipExtGetLinkTypeAndHopCount)

/* Prints which API the program called and aborts; never returns. */
static void ldsan_emu_unsupported(const char *api) {
  fflush(stdout);
  fprintf(stderr, "ldsan-emu: error: %s is not supported by the CPU emulator; "
                  "run this program on a GPU (build without --emulate) or avoid %s\n", api, api);
  fflush(stderr);
  abort();
}

#define LDSAN_EMU_STUB(api) \
  int api(void);            \
  int api(void) { ldsan_emu_unsupported(#api); return 1; }
LDSAN_EMU_UNSUPPORTED(LDSAN_EMU_STUB)
#undef LDSAN_EMU_STUB
