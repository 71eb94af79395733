/* ldsan blocks, looked up: whether an address is a live block of the pool
 * (reports name the workgroup's block, test_block checks it) or lies in a
 * freed one still in quarantine (a use after the kernel's exit). Read-only,
 * from any thread; below both the block allocator (block.c) and the reports
 * (report.c), which use each other's neighbours but not each other. */
#include "runtime.h"

uint64_t __ldsan_freed_block_at(uint64_t addr) {
  ldsan_pool pool;
  __ldsan_pool_current(&pool);
  uint64_t chunk = __ldsan_pool_chunk_of(&pool, addr);
  if (!chunk) return 0;
  LDSAN_GLOBAL ldsan_block_header *h = (LDSAN_GLOBAL ldsan_block_header *)(uintptr_t)chunk;
  if (__ldsan_load_acquire_u32(&h->magic, LDSAN_SCOPE_DEVICE) != 0 || h->self != chunk + LDSAN_BLOCK_HEADER_SIZE)
    return 0;
  return chunk + LDSAN_BLOCK_HEADER_SIZE;
}

LDSAN_GLOBAL ldsan_block_header *__ldsan_block_lookup(uint64_t block) {
  ldsan_pool pool;
  __ldsan_pool_current(&pool);
  return __ldsan_block_lookup_in(&pool, block);
}
