/* ldsan host: a plain C program linking libldsan-host.a with no C++ runtime and
 * no sanitizer, printing one report: demangling must still work (dlopen path). */
#include <stdio.h>
#include <string.h>

#include "ldsan/host.h"

static unsigned char blob[256];

static int read_mem(void *ctx, uint64_t addr, void *dst, size_t n) {
  (void)ctx;
  if (addr < 0x1000 || addr - 0x1000 + n > sizeof blob) return -1;
  memcpy(dst, blob + (addr - 0x1000), n);
  return 0;
}

int main(void) {
  ldsan_kernel_desc h = {.magic = LDSAN_DESC_MAGIC,
                         .abi_version = LDSAN_ABI_VERSION,
                         .total_size = sizeof h + 16,
                         .name = sizeof h, /* the name right after the header */
                         .static_size = 64,
                         .max_align = 16};
  memcpy(blob, &h, sizeof h);
  memcpy(blob + sizeof h, "_Z2k1Pii", 9);
  ldsan_report_record r;
  memset(&r, 0, sizeof r);
  r.state = LDSAN_RECORD_READY;
  r.kind = LDSAN_REPORT_BAD_ACCESS;
  r.address = r.access_address = 0x5000;
  r.size = 4;
  r.kernel_desc = 0x1000;
  r.shadow_byte = LDSAN_SHADOW_LDS_REDZONE;
  ldsan_device_memory mem = {NULL, read_mem};
  ldsan_dispatch_info di;
  memset(&di, 0, sizeof di);
  ldsan_host_print_record(&r, &mem, &di, stdout);
  return 0;
}
