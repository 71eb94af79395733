/* ldsan CPU emulator, HIP layer: device memory. Device memory is host memory
 * from the malloc family, so when the program's host part is built with
 * -fsanitize=address every hipMalloc buffer gets ASan redzones and the
 * emulated device's global accesses are checked against them (host and device
 * share one shadow). Copies are plain memcpy, which ASan also checks.
 * Device memory is exempt from LeakSanitizer, as GPU memory is: programs often
 * exit without hipFree. All operations are synchronous; stream arguments are
 * accepted and ignored.
 * Threading: no state of its own. */
#include <stdlib.h>
#include <string.h>

#include "hip_internal.h"

/* hipMalloc's alignment on a real device (bytes); some kernels rely on it. */
#define LDSAN_EMU_ALLOC_ALIGN 256u

/* Emulated device memory size reported by hipMemGetInfo / totalGlobalMem (bytes). */
#define LDSAN_EMU_GLOBAL_MEM (16ull << 30)

static hipError_t ldsan_emu_alloc(const char *api, void **ptr, size_t size) {
  if (!ptr) return ldsan_emu_hip_fail(hipErrorInvalidValue, api, "the result pointer is NULL");
  *ptr = NULL;
  if (size == 0) return hipSuccess;  /* as HIP: success, NULL */
  if (posix_memalign(ptr, LDSAN_EMU_ALLOC_ALIGN, size) != 0) {
    *ptr = NULL;
    return ldsan_emu_hip_fail(hipErrorOutOfMemory, api, "cannot allocate %zu bytes", size);
  }
  ldsan_emu_hip_not_a_leak(*ptr);
  return hipSuccess;
}

hipError_t hipMalloc(void **ptr, size_t size) { return ldsan_emu_alloc("hipMalloc", ptr, size); }
hipError_t hipMallocHost(void **ptr, size_t size) { return ldsan_emu_alloc("hipMallocHost", ptr, size); }
hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int flags) {
  (void)flags;
  return ldsan_emu_alloc("hipHostMalloc", ptr, size);
}
hipError_t hipHostAlloc(void **ptr, size_t size, unsigned int flags) {
  (void)flags;
  return ldsan_emu_alloc("hipHostAlloc", ptr, size);
}
hipError_t hipMallocManaged(void **ptr, size_t size, unsigned int flags) {
  (void)flags;
  return ldsan_emu_alloc("hipMallocManaged", ptr, size);
}
hipError_t hipMallocAsync(void **ptr, size_t size, hipStream_t stream) {
  (void)stream;
  return ldsan_emu_alloc("hipMallocAsync", ptr, size);
}

hipError_t hipMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height) {
  if (!pitch) return ldsan_emu_hip_fail(hipErrorInvalidValue, "hipMallocPitch", "pitch is NULL");
  *pitch = (width + LDSAN_EMU_ALLOC_ALIGN - 1) / LDSAN_EMU_ALLOC_ALIGN * LDSAN_EMU_ALLOC_ALIGN;
  return ldsan_emu_alloc("hipMallocPitch", ptr, *pitch * height);
}

hipError_t hipFree(void *ptr) { free(ptr); return hipSuccess; }
hipError_t hipFreeHost(void *ptr) { free(ptr); return hipSuccess; }
hipError_t hipHostFree(void *ptr) { free(ptr); return hipSuccess; }
hipError_t hipFreeAsync(void *ptr, hipStream_t stream) { (void)stream; free(ptr); return hipSuccess; }

/* Host memory is device memory here: registration and mapping are identities. */
hipError_t hipHostRegister(void *host_ptr, size_t size, unsigned int flags) {
  (void)host_ptr; (void)size; (void)flags;
  return hipSuccess;
}
hipError_t hipHostUnregister(void *host_ptr) { (void)host_ptr; return hipSuccess; }
hipError_t hipHostGetDevicePointer(void **dev_ptr, void *host_ptr, unsigned int flags) {
  (void)flags;
  if (!dev_ptr) return ldsan_emu_hip_set_error(hipErrorInvalidValue);
  *dev_ptr = host_ptr;
  return hipSuccess;
}
hipError_t hipHostGetFlags(unsigned int *flags, void *host_ptr) {
  (void)host_ptr;
  if (!flags) return ldsan_emu_hip_set_error(hipErrorInvalidValue);
  *flags = 0;
  return hipSuccess;
}

hipError_t hipMemGetInfo(size_t *free_bytes, size_t *total_bytes) {
  if (free_bytes) *free_bytes = (size_t)(LDSAN_EMU_GLOBAL_MEM / 2);
  if (total_bytes) *total_bytes = (size_t)LDSAN_EMU_GLOBAL_MEM;
  return hipSuccess;
}

/* The common path of every copy: checks arguments, then memcpy. */
static hipError_t ldsan_emu_copy(const char *api, void *dst, const void *src, size_t size, int kind) {
  hipError_t sticky = ldsan_emu_hip_sticky();
  if (sticky != hipSuccess) return ldsan_emu_hip_set_error(sticky);
  if (kind < hipMemcpyHostToHost || kind > hipMemcpyDefault)
    return ldsan_emu_hip_fail(hipErrorInvalidMemcpyDirection, api,
                              "copy kind %d is not a hipMemcpyKind (0..4)", kind);
  if (size == 0) return hipSuccess;
  if (!dst || !src)
    return ldsan_emu_hip_fail(hipErrorInvalidValue, api, "%s pointer is NULL (copying %zu bytes)",
                              dst ? "source" : "destination", size);
  memcpy(dst, src, size);
  return hipSuccess;
}

hipError_t hipMemcpy(void *dst, const void *src, size_t size, hipMemcpyKind kind) {
  return ldsan_emu_copy("hipMemcpy", dst, src, size, kind);
}
hipError_t hipMemcpyWithStream(void *dst, const void *src, size_t size, hipMemcpyKind kind,
                               hipStream_t stream) {
  (void)stream;
  return ldsan_emu_copy("hipMemcpyWithStream", dst, src, size, kind);
}
hipError_t hipMemcpyAsync(void *dst, const void *src, size_t size, hipMemcpyKind kind, hipStream_t stream) {
  (void)stream;
  return ldsan_emu_copy("hipMemcpyAsync", dst, src, size, kind);
}
hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void *src, size_t size) {
  return ldsan_emu_copy("hipMemcpyHtoD", dst, src, size, hipMemcpyHostToDevice);
}
hipError_t hipMemcpyDtoH(void *dst, hipDeviceptr_t src, size_t size) {
  return ldsan_emu_copy("hipMemcpyDtoH", dst, src, size, hipMemcpyDeviceToHost);
}
hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t size) {
  return ldsan_emu_copy("hipMemcpyDtoD", dst, src, size, hipMemcpyDeviceToDevice);
}
hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void *src, size_t size, hipStream_t stream) {
  (void)stream;
  return ldsan_emu_copy("hipMemcpyHtoDAsync", dst, src, size, hipMemcpyHostToDevice);
}
hipError_t hipMemcpyDtoHAsync(void *dst, hipDeviceptr_t src, size_t size, hipStream_t stream) {
  (void)stream;
  return ldsan_emu_copy("hipMemcpyDtoHAsync", dst, src, size, hipMemcpyDeviceToHost);
}
hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t size, hipStream_t stream) {
  (void)stream;
  return ldsan_emu_copy("hipMemcpyDtoDAsync", dst, src, size, hipMemcpyDeviceToDevice);
}
hipError_t hipMemcpyPeer(void *dst, int dst_device, const void *src, int src_device, size_t size) {
  if (dst_device != 0 || src_device != 0)
    return ldsan_emu_hip_fail(hipErrorInvalidDevice, "hipMemcpyPeer",
                              "devices %d and %d: the CPU emulator has only device 0", dst_device, src_device);
  return ldsan_emu_copy("hipMemcpyPeer", dst, src, size, hipMemcpyDeviceToDevice);
}

hipError_t hipMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                       size_t height, hipMemcpyKind kind) {
  if (width > dpitch || width > spitch)
    return ldsan_emu_hip_fail(hipErrorInvalidPitchValue, "hipMemcpy2D",
                              "row width %zu exceeds the pitch (dst %zu, src %zu)", width, dpitch, spitch);
  for (size_t row = 0; row < height; row++) {
    hipError_t err = ldsan_emu_copy("hipMemcpy2D", (char *)dst + row * dpitch,
                                    (const char *)src + row * spitch, width, kind);
    if (err != hipSuccess) return err;
  }
  return hipSuccess;
}
hipError_t hipMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                            size_t height, hipMemcpyKind kind, hipStream_t stream) {
  (void)stream;
  return hipMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

/* Fills count elements of elem bytes (1, 2 or 4) at dst with value. */
static hipError_t ldsan_emu_fill(const char *api, void *dst, uint32_t value, size_t count, size_t elem) {
  hipError_t sticky = ldsan_emu_hip_sticky();
  if (sticky != hipSuccess) return ldsan_emu_hip_set_error(sticky);
  if (count == 0) return hipSuccess;
  if (!dst) return ldsan_emu_hip_fail(hipErrorInvalidValue, api, "destination pointer is NULL");
  if (elem == 1) {
    memset(dst, (int)(value & 0xff), count);
  } else {
    unsigned char pattern[4];
    memcpy(pattern, &value, elem);  /* little-endian: the low elem bytes of value */
    unsigned char *p = dst;
    /* Byte copies keep ASan's interceptors checking the whole range. */
    memcpy(p, pattern, elem);
    for (size_t done = 1; done < count;) {
      size_t n = done < count - done ? done : count - done;
      memcpy(p + done * elem, p, n * elem);
      done += n;
    }
  }
  return hipSuccess;
}

hipError_t hipMemset(void *dst, int value, size_t size) {
  return ldsan_emu_fill("hipMemset", dst, (uint32_t)value, size, 1);
}
hipError_t hipMemsetAsync(void *dst, int value, size_t size, hipStream_t stream) {
  (void)stream;
  return ldsan_emu_fill("hipMemsetAsync", dst, (uint32_t)value, size, 1);
}
hipError_t hipMemsetD8(hipDeviceptr_t dst, unsigned char value, size_t count) {
  return ldsan_emu_fill("hipMemsetD8", dst, value, count, 1);
}
hipError_t hipMemsetD8Async(hipDeviceptr_t dst, unsigned char value, size_t count, hipStream_t stream) {
  (void)stream;
  return ldsan_emu_fill("hipMemsetD8Async", dst, value, count, 1);
}
hipError_t hipMemsetD16(hipDeviceptr_t dst, unsigned short value, size_t count) {
  return ldsan_emu_fill("hipMemsetD16", dst, value, count, 2);
}
hipError_t hipMemsetD16Async(hipDeviceptr_t dst, unsigned short value, size_t count, hipStream_t stream) {
  (void)stream;
  return ldsan_emu_fill("hipMemsetD16Async", dst, value, count, 2);
}
hipError_t hipMemsetD32(hipDeviceptr_t dst, int value, size_t count) {
  return ldsan_emu_fill("hipMemsetD32", dst, (uint32_t)value, count, 4);
}
hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count, hipStream_t stream) {
  (void)stream;
  return ldsan_emu_fill("hipMemsetD32Async", dst, (uint32_t)value, count, 4);
}
hipError_t hipMemset2D(void *dst, size_t pitch, int value, size_t width, size_t height) {
  if (width > pitch)
    return ldsan_emu_hip_fail(hipErrorInvalidPitchValue, "hipMemset2D", "width %zu exceeds pitch %zu",
                              width, pitch);
  for (size_t row = 0; row < height; row++) {
    hipError_t err = ldsan_emu_fill("hipMemset2D", (char *)dst + row * pitch, (uint32_t)value, width, 1);
    if (err != hipSuccess) return err;
  }
  return hipSuccess;
}

/* Resolves a __device__/__constant__ variable from its host shadow address and
 * checks [offset, offset+size) lies inside it; returns its device storage, or
 * NULL after printing why and setting *err. */
static char *ldsan_emu_symbol(const char *api, const void *symbol, size_t offset, size_t size,
                              hipError_t *err) {
  *err = hipErrorInvalidSymbol;
  const char *name;
  const ldsan_emu_global *g = ldsan_emu_hip_find_symbol(symbol, &name);
  if (!name) {
    ldsan_emu_hip_fail(hipErrorInvalidSymbol, api,
                       "%p is not a registered __device__ or __constant__ variable; pass the variable "
                       "itself (HIP_SYMBOL(var))", symbol);
    return NULL;
  }
  if (!g) {
    ldsan_emu_hip_fail(hipErrorInvalidSymbol, api,
                       "no emulated device storage for variable '%s'; compile its .hip file with "
                       "ldsan-cc --emulate", name);
    return NULL;
  }
  if (offset > g->size || size > g->size - offset) {
    *err = ldsan_emu_hip_fail(hipErrorInvalidValue, api,
                       "copy of %zu bytes at offset %zu overruns '%s' (%llu bytes)", size, offset, name,
                       (unsigned long long)g->size);
    return NULL;
  }
  return (char *)g->address + offset;
}

hipError_t hipMemcpyToSymbol(const void *symbol, const void *src, size_t size, size_t offset,
                             hipMemcpyKind kind) {
  hipError_t err;
  char *dst = ldsan_emu_symbol("hipMemcpyToSymbol", symbol, offset, size, &err);
  if (!dst) return err;
  return ldsan_emu_copy("hipMemcpyToSymbol", dst, src, size, kind);
}
hipError_t hipMemcpyToSymbolAsync(const void *symbol, const void *src, size_t size, size_t offset,
                                  hipMemcpyKind kind, hipStream_t stream) {
  (void)stream;
  hipError_t err;
  char *dst = ldsan_emu_symbol("hipMemcpyToSymbolAsync", symbol, offset, size, &err);
  if (!dst) return err;
  return ldsan_emu_copy("hipMemcpyToSymbolAsync", dst, src, size, kind);
}
hipError_t hipMemcpyFromSymbol(void *dst, const void *symbol, size_t size, size_t offset,
                               hipMemcpyKind kind) {
  hipError_t err;
  char *src = ldsan_emu_symbol("hipMemcpyFromSymbol", symbol, offset, size, &err);
  if (!src) return err;
  return ldsan_emu_copy("hipMemcpyFromSymbol", dst, src, size, kind);
}
hipError_t hipMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t size, size_t offset,
                                    hipMemcpyKind kind, hipStream_t stream) {
  (void)stream;
  hipError_t err;
  char *src = ldsan_emu_symbol("hipMemcpyFromSymbolAsync", symbol, offset, size, &err);
  if (!src) return err;
  return ldsan_emu_copy("hipMemcpyFromSymbolAsync", dst, src, size, kind);
}
hipError_t hipGetSymbolAddress(void **dev_ptr, const void *symbol) {
  hipError_t err;
  char *p = ldsan_emu_symbol("hipGetSymbolAddress", symbol, 0, 0, &err);
  if (!p) return err;
  if (dev_ptr) *dev_ptr = p;
  return hipSuccess;
}
hipError_t hipGetSymbolSize(size_t *size, const void *symbol) {
  const char *name;
  hipError_t err;
  if (!ldsan_emu_symbol("hipGetSymbolSize", symbol, 0, 0, &err)) return err;
  const ldsan_emu_global *g = ldsan_emu_hip_find_symbol(symbol, &name);
  if (size) *size = (size_t)g->size;
  return hipSuccess;
}
