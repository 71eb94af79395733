/* ldsan blocks: a workgroup's LDS block (kernel enter/exit) and device malloc,
 * both pool chunks laid out as abi.h draws:
 *
 *   chunk               block = chunk + 64                   block + used          chunk + chunk_size
 *   | header     0xe2   | slot 0xe5 | statics + rz | dynamic |  tail 0xe3 ...      |
 *                        (kernels only)             exact size  (>= 64 bytes)
 *
 * One work-item allocates and frees each block: the compiler's work-item
 * 0,0,0 for a workgroup's block, the lanes of a device malloc or free one at
 * a time. The block's shadow is written by the whole wave of work-item 0
 * (the plugin calls the _wave entry points there, instrument/WaveShadow.h),
 * all lanes sharing the fill (shadow.c): enter leaves in the header what the
 * wave is to write (shadow_used, shadow_end); at the end the wave poisons the
 * block and its lowest lane gives the chunk back. The compiler's barrier
 * after the block is stored in LDS[0] publishes header and shadow to the
 * workgroup; the wave reads what its work-item 0 wrote just before, after a
 * workgroup-scope fence the plugin puts between them. The header's magic is
 * stored last (release for a malloc block, which any thread may free) and
 * cleared by CAS on free, so exactly one of two racing frees wins; device
 * free refuses a workgroup's block (a bad free), so its exit clears the
 * magic with a store. */
#include "entry_points.h"
#include "runtime.h"

/* The dispatch packet's group_segment_size (u32) and kernel_object (u64: the
 * kernel descriptor's address), and the descriptor's group_segment_fixed_size
 * (u32): byte offsets in hsa_kernel_dispatch_packet_t (hsa.h) and
 * llvm::amdhsa::kernel_descriptor_t. */
#define PACKET_GROUP_SEGMENT_SIZE 28u
#define PACKET_KERNEL_OBJECT 32u
#define KD_GROUP_SEGMENT_FIXED_SIZE 0u

/* exit_block reads a header's chunk_seal, block_flags, size_class and
 * chunk_size as two little-endian words. */
_Static_assert(__builtin_offsetof(ldsan_block_header, chunk_seal) % 16 == 0 &&
                   __builtin_offsetof(ldsan_block_header, block_flags) == __builtin_offsetof(ldsan_block_header, chunk_seal) + 4 &&
                   __builtin_offsetof(ldsan_block_header, size_class) == __builtin_offsetof(ldsan_block_header, chunk_seal) + 6 &&
                   __builtin_offsetof(ldsan_block_header, chunk_size) == __builtin_offsetof(ldsan_block_header, chunk_seal) + 8,
               "HEADER_ALLOC_WORDS: the header's allocator fields as exit_block reads them");

/* The live block of the caller's own workgroup (enter returned it), or null:
 * only the header's own checks, within the store's memory (no pool view).
 * Every block the pool hands out is LDSAN_POOL_MIN_CHUNK-aligned (pool.c),
 * which exit_block's whole shadow units count on. */
static inline LDSAN_GLOBAL ldsan_block_header *own_block(uint64_t block) {
  uint64_t base, size;
  __ldsan_pool_store(&base, &size);
  if (block % LDSAN_POOL_MIN_CHUNK || block < base + LDSAN_BLOCK_HEADER_SIZE || block - base >= size) return 0;
  LDSAN_GLOBAL ldsan_block_header *h = (LDSAN_GLOBAL ldsan_block_header *)(uintptr_t)(block - LDSAN_BLOCK_HEADER_SIZE);
  /* Not self: the chunk seal covers it (the block's own address goes into it). */
  if (__ldsan_uniform_u32(__ldsan_load_relaxed_u32(&h->magic, LDSAN_SCOPE_DEVICE)) != LDSAN_BLOCK_MAGIC) return 0;
  return h;
}

/* Poisons md item 0, the compiler's 8-byte block-pointer slot and its redzone:
 * the kernel keeps the pointer in real LDS, so the block's copy is never used. */
static void poison_compiler_slot(uint64_t block, const LDSAN_GLOBAL ldsan_kernel_desc *desc, uint64_t used) {
  if (desc->var_count == 0) return;
  const LDSAN_GLOBAL ldsan_var_desc *slot = (const LDSAN_GLOBAL ldsan_var_desc *)(desc + 1);
  if (!(slot->flags & LDSAN_VAR_COMPILER_SLOT)) return;
  uint64_t end = (uint64_t)slot->offset + slot->size + slot->redzone;
  if (end > used) end = used;
  if (end > slot->offset) __ldsan_poison(block + slot->offset, end - slot->offset, LDSAN_SHADOW_LDS_COMPILER_SLOT);
}

/* What a new block is: the caller's arguments, passed by value (no stack object). */
typedef struct block_request {
  uint64_t block_size;  /* bytes the compiler (or malloc) asked for */
  uint64_t used;        /* of which addressable: static LDS + exact dynamic size */
  uint64_t kernel_desc; /* descriptor (0: none, or device malloc) */
  uint32_t dynamic_size;
  uint32_t block_flags; /* LDSAN_BLOCK_* */
  uint64_t extra;       /* bytes after the tail redzone (the LDS checks' hazard area, 64-aligned) */
} block_request;

/* Bytes of the chunk r needs (header, block, tail redzone), or 0 if that
 * wraps (a block larger than any store). */
static inline uint64_t chunk_bytes(block_request r) {
  uint64_t bytes = LDSAN_BLOCK_HEADER_SIZE + r.block_size + LDSAN_DYNAMIC_TAIL_REDZONE;
  if (r.extra) bytes = ((bytes + 63u) & ~63ull) + r.extra;
  return bytes > r.block_size ? bytes : 0;
}

/* prev_size of a chunk that holds no block shadow yet (from the pool). */
#define FRESH_CHUNK UINT64_MAX

/* Where a kernel's exit ends the e4 (LDS_FREED) of a block of block_size in a
 * chunk of payload bytes after its header: whole shadow units (128 bytes of
 * block each), which fit in the chunk (its size is a multiple of 256 and
 * holds header, block and a tail of at least 64 bytes: block_size <=
 * chunk - 128, a multiple of 128, so the end stays below payload and below
 * the LDS checks' hazard area, lds_checks.c); a larger block_size (a header
 * overwritten) stops at the payload's last whole unit. */
static inline uint64_t freed_end(uint64_t block_size, uint64_t payload) {
  uint64_t end = (block_size + 127u) & ~127ull;
  return end <= payload ? end : payload & ~127ull;
}

/* Copies a descriptor's shadow image (abi.h) of [block, block + static_size)
 * into place, in whole 8-byte words (its padding is the tail's value, which
 * fill_block_shadow then puts right where the block goes on), shared by the
 * calling lanes: word i to rank i mod count. An odd count of words gets one
 * more of the tail's value, so the copy ends a shadow unit as a kernel's exit
 * does (freed_end: the chunk holds it). Returns the bytes of block whose
 * shadow it wrote (64 per word). */
static uint64_t copy_shadow_image(uint64_t block, const LDSAN_GLOBAL uint64_t *image, uint32_t static_size) {
  uint32_t rank = __ldsan_lane_rank(), count = __ldsan_lane_count();
  LDSAN_GLOBAL uint64_t *to = (LDSAN_GLOBAL uint64_t *)__ldsan_shadow_of(block); /* 8-aligned: blocks are 64-aligned */
  uint32_t words = (static_size / LDSAN_SHADOW_GRANULE + 7u) / 8u;
  if (words <= count) { /* a word for each of the first lanes (up to 32 KiB of statics on wave64): no loop */
    if (rank < words) to[rank] = image[rank];
  } else {
    for (uint32_t i = rank; i < words; i += count) to[i] = image[i];
  }
  if ((words & 1u) && rank == count - 1u) to[words] = 0x0101010101010101ull * LDSAN_SHADOW_LDS_DYNAMIC_TAIL;
  return (uint64_t)((words + 1u) & ~1u) * 64u;
}

/* Writes a new block's shadow: [block, block + used) addressable but for the
 * kernel's redzones and compiler slot (desc's shadow image where it has one,
 * else the slot here and the redzones by the LDS pass's calls), then
 * LDS_DYNAMIC_TAIL up to block + end. Shared by the calling lanes
 * (shadow.c): all lanes of a wave, or one. */
static void fill_block_shadow(uint64_t block, const LDSAN_GLOBAL ldsan_kernel_desc *desc, uint64_t used, uint64_t end) {
  uint32_t image = desc ? __ldsan_uniform_u32(desc->shadow) : 0;
  uint32_t static_size = desc ? __ldsan_uniform_u32(desc->static_size) : 0;
  /* end is whole granules; a partial granule at used is the unpoisoning's. */
  uint64_t tail = (used + LDSAN_SHADOW_GRANULE - 1) & ~(uint64_t)(LDSAN_SHADOW_GRANULE - 1);
  if (image && static_size <= used) {
    /* The image's padding past static_size is the tail's value: what it
     * wrote past used is right (a block of the same size as the chunk's last
     * one has no tail left to write). */
    uint64_t imaged = copy_shadow_image(block, (const LDSAN_GLOBAL uint64_t *)((const LDSAN_GLOBAL uint8_t *)desc + image),
                                        static_size);
    if (imaged > tail) tail = imaged;
    if (used > static_size)
      __ldsan_unpoison(block + static_size, used - static_size); /* dynamic LDS */
  } else {
    __ldsan_unpoison(block, used);
    if (desc)
      poison_compiler_slot(block, desc, used);
  }
  if (end > tail)
    __ldsan_fill_shadow(__ldsan_shadow_of(block + tail), __ldsan_shadow_of(block + end), LDSAN_SHADOW_LDS_DYNAMIC_TAIL);
}

/* Makes chunk (of size_class/chunk_size) the block r asks for: header, shadow
 * (header, addressable part, tail, the compiler's slot), then the magic that
 * publishes it. A chunk from the block cache keeps its last block's shadow:
 * header e2, [block, freed_end(prev_size, payload)) e4 (kernel exit),
 * the rest e3; only what differs is written (the addressable part, and e3
 * over the old block's excess), so a workgroup's shadow work is its own
 * block's size, not its chunk's. A workgroup's block leaves that work in its header for the wave
 * (__ldsan_kernel_enter_wave); anything else does it here. Inline in both
 * paths below, so neither keeps values across a call. */
static inline uint64_t init_block(block_request r, uint64_t chunk, uint32_t size_class, uint64_t chunk_size,
                                  uint64_t prev_size) {
  uint64_t block = chunk + LDSAN_BLOCK_HEADER_SIZE;
  LDSAN_GLOBAL ldsan_block_header *h = (LDSAN_GLOBAL ldsan_block_header *)(uintptr_t)chunk;
  uint64_t payload = chunk_size - LDSAN_BLOCK_HEADER_SIZE;
  uint64_t stale_end = prev_size == FRESH_CHUNK ? payload : freed_end(prev_size, payload);
  if (stale_end < r.used) stale_end = r.used;
  if (prev_size == FRESH_CHUNK) { /* a chunk from the cache keeps these */
    h->size_class = (uint16_t)size_class;
    h->chunk_size = chunk_size;
    h->chunk_seal = ldsan_chunk_seal(block, chunk_size, size_class);
    __ldsan_poison(chunk, LDSAN_BLOCK_HEADER_SIZE, LDSAN_SHADOW_LDS_BLOCK_HEADER);
  }
  h->self = block; /* the last block's may have been written over */
  h->kernel_desc = r.kernel_desc;
  h->block_size = r.block_size;
  h->dynamic_size = r.dynamic_size;
  h->block_flags = (uint16_t)r.block_flags;
  h->owner = LDSAN_OWNER(__ldsan_workgroup_id_x(), __ldsan_workgroup_id_y(), __ldsan_workgroup_id_z());
  int for_wave = (r.block_flags & LDSAN_BLOCK_KERNEL) && stale_end <= UINT32_MAX;
  h->shadow_used = for_wave ? (uint32_t)r.used : 0;
  h->shadow_end = for_wave ? (uint32_t)stale_end : 0;
  if (!for_wave)
    fill_block_shadow(block, (const LDSAN_GLOBAL ldsan_kernel_desc *)(uintptr_t)r.kernel_desc, r.used, stale_end);
  /* A workgroup's block is published to its other waves by the prologue
   * barrier's fences, and freed by the same work-item: relaxed. A malloc
   * block may be freed by anyone: release. */
  if (r.block_flags & LDSAN_BLOCK_KERNEL)
    __ldsan_store_relaxed_u32(&h->magic, LDSAN_BLOCK_MAGIC, LDSAN_SCOPE_DEVICE);
  else
    __ldsan_store_release_u32(&h->magic, LDSAN_BLOCK_MAGIC, LDSAN_SCOPE_DEVICE);
  return block;
}

/* The pool's path (a workgroup takes it only until a chunk of its class is in
 * the block cache): prepares the pool on first use, probes regions, backs off
 * while full; when the pool is exhausted, the block caches give their chunks
 * back and it tries once more. bytes: chunk_bytes(r). Returns the block, or
 * reports why there is none and returns 0 (report_flags: LDSAN_ACCESS_NOABORT
 * or 0; pc 0: the report's own, in the kernel, so no pc is kept live across
 * the allocation). Inline: in a kernel (InlineBlockCalls.h) its scalar code costs no
 * scratch, where a call would make the kernel save registers for it. */
static inline __attribute__((always_inline)) uint64_t block_from_pool(const ldsan_pool *pool, block_request r,
                                                                      uint64_t bytes, uint64_t pc,
                                                                      uint32_t report_flags) {
  if (!__ldsan_pool_prepared(pool))
    __ldsan_pool_prepare(pool);
  uint32_t size_class = 0, status = LDSAN_POOL_TOO_LARGE;
  uint64_t chunk_size = 0, chunk = 0;
  if (bytes) { /* else larger than any pool */
    for (uint32_t drained = 0;; drained = 1) {
      chunk = __ldsan_pool_alloc(pool, bytes, &size_class, &chunk_size, &status);
      if (chunk || status != LDSAN_POOL_EXHAUSTED || drained) break;
      __ldsan_block_cache_drain(pool);
    }
  }
  if (!chunk)
    return __ldsan_report(status == LDSAN_POOL_TOO_LARGE ? LDSAN_REPORT_BLOCK_TOO_LARGE : LDSAN_REPORT_POOL_EXHAUSTED,
                          0, 0, r.block_size, report_flags, 0, pc ? pc : __ldsan_target_pc());
  return init_block(r, chunk, size_class, chunk_size, FRESH_CHUNK);
}

/* A block for r: a workgroup's block (LDSAN_BLOCK_KERNEL) from the block cache
 * when one of its class is there (one CAS; the pool's heads are all it
 * needs), else from the pool. An unprepared pool has an empty cache. */
static inline uint64_t block_alloc(block_request r, uint64_t pc, uint32_t report_flags) {
  uint64_t base, size; /* read once, shared by both paths */
  __ldsan_pool_store(&base, &size);
  uint64_t bytes = chunk_bytes(r);
  if ((r.block_flags & LDSAN_BLOCK_KERNEL) && bytes && bytes <= LDSAN_POOL_REGION_SIZE) {
    uint32_t size_class = __ldsan_pool_class_of(bytes);
    uint64_t chunk = __ldsan_block_cache_pop(__ldsan_pool_heads(base), size_class);
    if (chunk) {
      /* The chunk is ours: its header still holds the last block's size. */
      uint64_t prev_size = __ldsan_uniform_u64(((LDSAN_GLOBAL ldsan_block_header *)(uintptr_t)chunk)->block_size);
      return init_block(r, chunk, size_class, (uint64_t)LDSAN_POOL_MIN_CHUNK << size_class, prev_size);
    }
  }
  ldsan_pool pool;
  __ldsan_pool_view(base, size, &pool);
  return block_from_pool(&pool, r, bytes, pc, report_flags);
}

/* Takes back live block h (its magic already cleared by the caller, so it is
 * the caller's alone) and gives its chunk (chunk_size bytes of class
 * size_class, as the pool says) to the block cache or the pool.
 * kernel_poisoned: a workgroup's block whose [block, block_size) the wave
 * already poisoned (__ldsan_kernel_exit_wave); else all of it is poisoned
 * here. The chunk's tail stays e3 in the cache, which init_block counts on.
 * pc 0: a report's pc is where it is made (in the kernel: its own code). */
static void release_chunk(uint64_t block, uint64_t chunk_size, uint32_t size_class, int kernel_poisoned, uint64_t pc) {
  uint64_t chunk = block - LDSAN_BLOCK_HEADER_SIZE;
  uint64_t payload = chunk_size - LDSAN_BLOCK_HEADER_SIZE;
  uint64_t base, size; /* read once, shared by both paths */
  __ldsan_pool_store(&base, &size);
  if (kernel_poisoned && size_class < LDSAN_POOL_CLASSES &&
      __ldsan_block_cache_push(__ldsan_pool_heads(base), size_class, chunk))
    return;
  /* To the pool: poisoned whole, as its next owner expects a fresh chunk. */
  __ldsan_poison(block, payload, LDSAN_SHADOW_LDS_FREED);
  ldsan_pool pool;
  __ldsan_pool_view(base, size, &pool);
  if (__ldsan_pool_free(&pool, chunk) != 0)
    (void)__ldsan_report(LDSAN_REPORT_BAD_FREE, block, block, 0, 0, 0, pc ? pc : __ldsan_target_pc());
}

/* The dispatch's dynamic LDS bytes: what the launch asked for on top of the
 * kernel's own LDS. Every runtime puts the sum in the packet's
 * group_segment_size (the HIP runtime: the code object's
 * group_segment_fixed_size plus sharedMemBytes, CLR
 * VirtualGPU::submitKernelInternal, ROCm 5.2-7.x), so it is the packet's size
 * minus the kernel descriptor's. Not the implicit argument
 * hidden_dynamic_lds_size: the HIP runtime writes it only from ROCm 6.1 (CLR
 * f554a075c), and a kernel whose metadata names it breaks the launch of older
 * ones (an unknown argument kind becomes a visible argument CLR reads past the
 * caller's array), so the plugin removes what makes the compiler name it. */
LDSAN_ENTRY_FN uint32_t __ldsan_dynamic_lds_size(void) {
  uint64_t packet = __ldsan_dispatch_ptr();
  if (!packet) return 0;
  uint32_t total = *(const LDSAN_CONSTANT uint32_t *)(uintptr_t)(packet + PACKET_GROUP_SEGMENT_SIZE);
  uint64_t kd = *(const LDSAN_CONSTANT uint64_t *)(uintptr_t)(packet + PACKET_KERNEL_OBJECT);
  uint32_t fixed = kd ? *(const LDSAN_GLOBAL uint32_t *)(uintptr_t)(kd + KD_GROUP_SEGMENT_FIXED_SIZE) : 0;
  return total > fixed ? total - fixed : 0;
}

/* The kernel descriptor at kernel_desc, or null if there is none. */
static inline const LDSAN_GLOBAL ldsan_kernel_desc *kernel_desc_at(uint64_t kernel_desc) {
  const LDSAN_GLOBAL ldsan_kernel_desc *desc = (const LDSAN_GLOBAL ldsan_kernel_desc *)(uintptr_t)kernel_desc;
  return desc && desc->magic == LDSAN_DESC_MAGIC ? desc : 0; /* not a descriptor: act as if none */
}

/* What the block of a workgroup of the kernel described by kernel_desc holds. */
static inline block_request kernel_request(uint64_t block_size, uint64_t kernel_desc) {
  const LDSAN_GLOBAL ldsan_kernel_desc *desc = kernel_desc_at(kernel_desc);
  kernel_desc = (uint64_t)(uintptr_t)desc;
  uint32_t dynamic_size = 0;
  uint64_t used = block_size;
  if (desc) {
    if (desc->flags & LDSAN_KERNEL_HAS_DYNAMIC) dynamic_size = __ldsan_dynamic_lds_size();
    used = (uint64_t)desc->static_size + dynamic_size;
    if (used > block_size) used = block_size; /* never unpoison past what was allocated */
  }
  block_request r = {block_size, used, kernel_desc, dynamic_size, LDSAN_BLOCK_KERNEL, 0};
  return r;
}

/* The compiler's prologue and epilogue call enter and exit on work-item 0
 * only: one lane, so every value is wave-uniform (the allocator's contract,
 * runtime.h); the _wave entry points on every lane of its wave, with the
 * same block. The plugin inlines all four into the kernel
 * (InlineBlockCalls.h), so a report's pc is the kernel's own (the prologue or
 * epilogue line). */
LDSAN_ENTRY_FN uint64_t __ldsan_kernel_enter(uint64_t block_size, uint64_t kernel_desc) {
  block_request r = kernel_request(__ldsan_uniform_u64(block_size), __ldsan_uniform_u64(kernel_desc));
  /* A kernel cannot run without its block: failure aborts (when halting). */
  return block_alloc(r, 0, 0); /* pc 0: the report's own (s_getpc in this kernel) */
}

/* enter for a kernel built with the LDS checks: the chunk also holds the
 * block's hazard area (lds_checks.c), which __ldsan_lds_checks_enter sets up. */
LDSAN_ENTRY_FN uint64_t __ldsan_kernel_enter_checked(uint64_t block_size, uint64_t kernel_desc) {
  block_request r = kernel_request(__ldsan_uniform_u64(block_size), __ldsan_uniform_u64(kernel_desc));
  r.extra = __ldsan_hz_bytes(r.block_size);
  return block_alloc(r, 0, 0);
}

/* kernel_desc: what the kernel passed to enter (a constant in the kernel, so
 * the descriptor's fields are too, once inlined). */
LDSAN_ENTRY_FN void __ldsan_kernel_enter_wave(uint64_t block, uint64_t kernel_desc) {
  block = __ldsan_uniform_u64(block);
  if (block == 0) return; /* enter failed and was reported */
  LDSAN_GLOBAL ldsan_block_header *h = (LDSAN_GLOBAL ldsan_block_header *)(uintptr_t)(block - LDSAN_BLOCK_HEADER_SIZE);
  fill_block_shadow(block, kernel_desc_at(__ldsan_uniform_u64(kernel_desc)), __ldsan_uniform_u32(h->shadow_used),
                    __ldsan_uniform_u32(h->shadow_end));
}

/* Poisons [block, block + bytes) as freed (bytes: a multiple of 128, block
 * LDSAN_POOL_MIN_CHUNK-aligned: whole shadow units). */
static inline __attribute__((always_inline)) void poison_freed(uint64_t block, uint64_t bytes) {
  __ldsan_fill_shadow_units((LDSAN_GLOBAL ldsan_u64x2 *)__ldsan_shadow_of(block), bytes / 128u, LDSAN_SHADOW_LDS_FREED);
}

/* The chunk of a workgroup's block whose header no longer holds what the
 * pool wrote there (its seal or its block size is off: the program wrote
 * over it, an underflow let through in recover mode; abi.h,
 * ldsan_chunk_seal), as the pool's own bookkeeping says: its size, 0 when
 * the pool never handed it out, and its class in *size_class. Never the
 * header's sizes, which would have the exit poison any amount of shadow or
 * give the chunk to another class. */
static inline uint64_t damaged_block_chunk(uint64_t block, uint32_t *size_class) {
  ldsan_pool pool;
  __ldsan_pool_current(&pool);
  return __ldsan_uniform_u64(__ldsan_pool_chunk_size(&pool, block - LDSAN_BLOCK_HEADER_SIZE, size_class));
}

/* A workgroup's block at the end of its kernel, on every lane of the wave of
 * work-item 0 (or on one lane): all of them poison it, the lowest clears its
 * magic (only this workgroup changes it: no CAS) and gives the chunk back
 * (the release there covers its wave's poisoning stores). static_size: the
 * block size of a kernel without dynamic LDS (from its descriptor, a
 * constant once inlined), else 0; a block of that size is poisoned with a
 * constant count. The header's chunk size and class count only as far as
 * their seal vouches for them, with a block size the chunk holds; a header
 * that fails is reported once for the workgroup and repaired, so a workgroup
 * that reuses the chunk has nothing to say. */
static void exit_block(uint64_t block, uint64_t static_size) {
  block = __ldsan_uniform_u64(block);
  if (block == 0) return; /* enter failed and was reported */
  LDSAN_GLOBAL ldsan_block_header *h = own_block(block);
  uint32_t size_class = 0;
  uint64_t chunk_size = 0, block_size = 0;
  int intact = 0;
  if (h) {
    /* Seal, flags, class and chunk size: one load (HEADER_ALLOC_WORDS). */
    ldsan_u64x2 alloc = *(const LDSAN_GLOBAL ldsan_u64x2 *)&h->chunk_seal;
    uint64_t word = __ldsan_uniform_u64(alloc[0]);
    chunk_size = __ldsan_uniform_u64(alloc[1]);
    size_class = (uint16_t)(word >> 48);
    block_size = __ldsan_uniform_u64(h->block_size);
    intact = ((uint16_t)(word >> 32) & LDSAN_BLOCK_KERNEL) &&
             (uint32_t)word == ldsan_chunk_seal(block, chunk_size, size_class) &&
             block_size <= chunk_size - LDSAN_BLOCK_HEADER_SIZE - LDSAN_DYNAMIC_TAIL_REDZONE; /* sealed: >= 256 */
    if (!intact) chunk_size = damaged_block_chunk(block, &size_class); /* its flags too may be the program's */
  }
  if (!chunk_size) { /* not a live block, or not one the pool handed out */
    if (__ldsan_first_active_lane()) (void)__ldsan_report(LDSAN_REPORT_BAD_FREE, block, block, 0, 0, 0, __ldsan_target_pc());
    return;
  }
  /* Whole shadow units (freed_end): the chunk's tail redzone (>= 64 bytes,
   * still e3) takes the rest of the last one, which init_block counts on. */
  if (static_size && intact && block_size == static_size)
    poison_freed(block, (static_size + 127u) & ~127ull); /* a constant: the block's own chunk holds it */
  else
    poison_freed(block, freed_end(block_size, chunk_size - LDSAN_BLOCK_HEADER_SIZE));
  if (__ldsan_first_active_lane()) {
    if (!intact) {
      (void)__ldsan_report(LDSAN_REPORT_BLOCK_HEADER_CORRUPTED, block, block - LDSAN_BLOCK_HEADER_SIZE, chunk_size,
                           LDSAN_ACCESS_NOABORT, 0, __ldsan_target_pc());
      /* A chunk from the block cache keeps these (init_block). */
      h->self = block;
      h->chunk_size = chunk_size;
      h->size_class = (uint16_t)size_class;
      h->chunk_seal = ldsan_chunk_seal(block, chunk_size, size_class);
      h->block_size = 0;
    }
    __ldsan_store_relaxed_u32(&h->magic, 0, LDSAN_SCOPE_DEVICE);
    release_chunk(block, chunk_size, size_class, 1, 0);
  }
}

/* The block size of a kernel with no dynamic LDS (its descriptor's static
 * size), or 0. */
static inline uint64_t static_block_size(uint64_t kernel_desc) {
  const LDSAN_GLOBAL ldsan_kernel_desc *desc = kernel_desc_at(__ldsan_uniform_u64(kernel_desc));
  return desc && !(desc->flags & LDSAN_KERNEL_HAS_DYNAMIC) ? desc->static_size : 0;
}

LDSAN_ENTRY_FN void __ldsan_kernel_exit_wave(uint64_t block, uint64_t kernel_desc) {
  exit_block(block, static_block_size(kernel_desc));
}

LDSAN_ENTRY_FN void __ldsan_kernel_exit(uint64_t block, uint64_t kernel_desc) {
  exit_block(block, static_block_size(kernel_desc));
}

/* Device malloc and free may come from many lanes at once: the lanes take
 * turns, lowest active lane first, so the allocator runs on one lane at a time. */
LDSAN_ENTRY_FN uint64_t LDSAN_ENTRY(__asan_malloc_impl)(uint64_t size, uint64_t pc) {
  if (!pc) pc = __ldsan_return_address();
  uint64_t block;
  for (;;) {
    if (__ldsan_first_active_lane()) {
      /* NULL on exhaustion is normal for malloc, so that report does not abort. */
      block_request r = {__ldsan_uniform_u64(size), __ldsan_uniform_u64(size), 0, 0, 0, 0};
      block = block_alloc(r, __ldsan_uniform_u64(pc), LDSAN_ACCESS_NOABORT);
      break;
    }
  }
  return block;
}

LDSAN_ENTRY_FN void LDSAN_ENTRY(__asan_free_impl)(uint64_t ptr, uint64_t pc) {
  if (ptr == 0) return;
  if (!pc) pc = __ldsan_return_address();
  for (;;) {
    if (__ldsan_first_active_lane()) {
      uint64_t block = __ldsan_uniform_u64(ptr);
      ldsan_pool pool;
      __ldsan_pool_current(&pool);
      LDSAN_GLOBAL ldsan_block_header *h =
          (LDSAN_GLOBAL ldsan_block_header *)(uintptr_t)__ldsan_uniform_u64((uint64_t)(uintptr_t)__ldsan_block_lookup_in(&pool, block));
      /* A workgroup's block is not free's to take; of two racing frees, one wins the CAS. */
      uint32_t size_class = 0;
      uint64_t chunk_size = h ? __ldsan_uniform_u64(__ldsan_pool_chunk_size(&pool, block - LDSAN_BLOCK_HEADER_SIZE,
                                                                             &size_class))
                              : 0;
      if (!h || !chunk_size || (__ldsan_uniform_u32(h->block_flags) & LDSAN_BLOCK_KERNEL) ||
          __ldsan_uniform_u32(__ldsan_atomic_cas_u32(&h->magic, LDSAN_BLOCK_MAGIC, 0, LDSAN_SCOPE_DEVICE)) !=
              LDSAN_BLOCK_MAGIC)
        (void)__ldsan_report(LDSAN_REPORT_BAD_FREE, block, block, 0, 0, 0, __ldsan_uniform_u64(pc));
      else
        release_chunk(block, chunk_size, size_class, 0, __ldsan_uniform_u64(pc));
      break;
    }
  }
}
