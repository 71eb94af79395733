/* ldsan ABI: every layout the device runtime, the host library and the compiler
 * plugin share. Freestanding C: fixed-width types only, no pointers in shared
 * structs (device addresses are uint64_t, LDS offsets uint32_t). Compiled by
 * the amdgcn runtime build, the host library, host unit tests and the C++ plugin.
 * Changing any layout here means bumping LDSAN_ABI_VERSION. */
#ifndef LDSAN_ABI_H
#define LDSAN_ABI_H

#include <stdint.h>

#ifdef __cplusplus
#define LDSAN_STATIC_ASSERT static_assert
extern "C" {
#else
#define LDSAN_STATIC_ASSERT _Static_assert
#endif

/* Bumped on any change to a layout or protocol in this header. The device state
 * carries it in its initializer; the host refuses a code object that differs. */
#define LDSAN_ABI_VERSION 8u

/* ---------------------------------------------------------------------------
 * Shadow mapping: what the compiler emits for amdgcn (and host ASan on x86-64).
 *   shadow(addr) = (addr >> 3) + 0x7FFF8000, one shadow byte per 8-byte granule.
 *   0 = granule addressable, 1..7 = only the first k bytes are, other = poisoned.
 * LDS-only images (no ASan in the program) use the same scale with an offset
 * of ldsan's own (ldsan_device_state.shadow_offset).
 * ------------------------------------------------------------------------- */
#define LDSAN_SHADOW_OFFSET 0x7FFF8000ull
#define LDSAN_SHADOW_SCALE 3u
#define LDSAN_SHADOW_GRANULE 8u /* bytes per shadow byte */

enum ldsan_shadow_byte {
#define LDSAN_SHADOW_BYTE(ENUM, value, bug_name, legend) LDSAN_SHADOW_##ENUM = value,
#include "shadow_bytes.def"
#undef LDSAN_SHADOW_BYTE
};

enum ldsan_report_kind {
#define LDSAN_REPORT_KIND(ENUM, value, name, description) LDSAN_REPORT_##ENUM = value,
#include "report_kinds.def"
#undef LDSAN_REPORT_KIND
};

/* ---------------------------------------------------------------------------
 * Per-workgroup LDS block, as ldsan allocates it in global memory.
 *
 *   chunk start                       block (what the kernel sees as LDS 0)
 *   |<----- LDSAN_BLOCK_HEADER_SIZE ----->|<- slot ->|<-rz->|<- var 1 ->|<-rz->| ... |<- dynamic ->|<- tail rz ->|
 *   | ldsan_block_header | poisoned 0xe2  | 8 bytes  | 0xe5 |  var      | 0xe1 |     | exact size  |  0xe3       |
 *
 * The compiler's md item 0 is the 8-byte slot (its copy in the block is never
 * used). Static variables follow with the redzones the compiler chose;
 * dynamic LDS starts at ldsan_kernel_desc.static_size and is poisoned from the
 * exact dynamic LDS size of the launch on, so an overrun is caught to the byte.
 * ------------------------------------------------------------------------- */
#define LDSAN_BLOCK_HEADER_SIZE 64u     /* bytes before the block, also the block alignment */
#define LDSAN_BLOCK_MAGIC 0x4C44534Bu   /* 'LDSK' */
#define LDSAN_DYNAMIC_TAIL_REDZONE 64u  /* bytes of poisoned tail added after dynamic LDS */

/* Lives in the first bytes of the header. Written by the allocating work-item
 * before the workgroup barrier that publishes the block; read by reports. */
typedef struct ldsan_block_header {
  uint32_t magic;         /* LDSAN_BLOCK_MAGIC while the block is live, 0 after free */
  uint32_t dynamic_size;  /* exact dynamic LDS size of this dispatch (__ldsan_dynamic_lds_size) */
  uint64_t self;          /* address of the block (chunk + header): validates a guess */
  uint64_t kernel_desc;   /* device address of the kernel's ldsan_kernel_desc, 0 unknown */
  uint64_t block_size;    /* bytes the compiler asked for */
  /* seal, flags, class and chunk size: 16 bytes the exit reads in one load */
  uint32_t chunk_seal;    /* ldsan_chunk_seal(self, chunk_size, size_class) as the pool set them */
  uint16_t block_flags;   /* LDSAN_BLOCK_* */
  uint16_t size_class;    /* allocator bookkeeping */
  uint64_t chunk_size;    /* bytes of the chunk, header included */
  uint32_t shadow_used;   /* device-internal: the shadow a workgroup's block still owes, */
  uint32_t shadow_end;    /*   written by its wave: [0, used) addressable, [used, end) 0xe3 */
  uint64_t owner;         /* workgroup that got the block: LDSAN_OWNER_{X,Y,Z} */
} ldsan_block_header;
/* owner = x | y << 32 | z << 48 (y and z truncated to 16 bits) */
#define LDSAN_OWNER(x, y, z) ((uint64_t)(uint32_t)(x) | (uint64_t)((y) & 0xffffu) << 32 | (uint64_t)((z) & 0xffffu) << 48)
#define LDSAN_OWNER_X(o) ((uint32_t)(o))
#define LDSAN_OWNER_Y(o) ((uint32_t)((o) >> 32) & 0xffffu)
#define LDSAN_OWNER_Z(o) ((uint32_t)((o) >> 48))
#define LDSAN_BLOCK_KERNEL 1u   /* a workgroup's LDS block (else device malloc) */
LDSAN_STATIC_ASSERT(sizeof(ldsan_block_header) == LDSAN_BLOCK_HEADER_SIZE, "block header size");

/* The header is the program's to overwrite (an LDS underflow let through in
 * recover mode lands there), so whoever acts on its allocator fields first
 * checks them against their seal, written with them when the pool hands out
 * the chunk: an overwrite that leaves all four consistent by accident has a
 * chance of 2^-32 (scudo checks its chunk headers with 16 bits). On a
 * mismatch the device asks the pool's own bookkeeping instead (block.c), and
 * the host does not use the header's sizes. Not a defence against a program
 * that forges headers on purpose. */
static inline uint32_t ldsan_chunk_seal(uint64_t self, uint64_t chunk_size, uint32_t size_class) {
  /* 32-bit steps (scalar on the device). Chunks are whole 256-byte units. */
  return ((uint32_t)self ^ (uint32_t)(self >> 32) ^ (uint32_t)(chunk_size >> 8) ^ size_class << 24 ^ 0x6c64736eu) *
         0x9e3779b1u;
}

/* ---------------------------------------------------------------------------
 * Kernel LDS descriptor, emitted by the plugin for every lowered kernel as one
 * self-contained blob (no relocations): header, var_count variable records,
 * then NUL-terminated strings addressed by byte offsets from the blob start.
 * Global name: __ldsan_kdesc.<kernel>, section LDSAN_DESC_SECTION, align 8.
 * The device reads static_size/flags/shadow; the host reads everything.
 *
 * The shadow image (at byte offset `shadow`, 8-aligned, static_size / 8
 * bytes; shadow 0: none) is the ASan shadow of the block's static part as a
 * workgroup starts: for each static variable record, its `size` bytes
 * addressable (a last partial granule k = size % 8), its redzone
 * LDSAN_SHADOW_LDS_REDZONE; the compiler slot's own bytes
 * LDSAN_SHADOW_LDS_COMPILER_SLOT; bytes no record covers the redzone value.
 * It is padded to whole 8-byte words with LDSAN_SHADOW_LDS_DYNAMIC_TAIL (the
 * value past a block's end; the block's tail redzone is at least 64 bytes):
 * the device copies words into place instead of poisoning variable by
 * variable, then writes the dynamic part and the tail.
 * ------------------------------------------------------------------------- */
/* The name suffix of the CPU emulator's checked copies of a kernel's
 * functions (the LDS checks at run time): the host's symbolizer drops it
 * from the function names it prints. */
#define LDSAN_CHECKED_COPY_SUFFIX ".ldsan.checked"

#define LDSAN_DESC_MAGIC 0x4B44534Cu    /* 'LSDK' */
#define LDSAN_DESC_SECTION ".ldsan_lds_desc"

enum ldsan_kernel_flags {
  LDSAN_KERNEL_HAS_DYNAMIC = 1u << 0,   /* the kernel reaches dynamic LDS */
  LDSAN_KERNEL_INDIRECT = 1u << 1,      /* the kernel reaches LDS through functions */
  LDSAN_KERNEL_CHECK_RACES = 1u << 2,   /* built with ldsan-cc -fsanitize-lds=races (lds_checks.c) */
  LDSAN_KERNEL_CHECK_UNINIT = 1u << 3,  /* built with ldsan-cc -fsanitize-lds=uninit */
};

enum ldsan_var_flags {
  LDSAN_VAR_COMPILER_SLOT = 1u << 0,    /* md item 0, the block pointer slot */
  LDSAN_VAR_DYNAMIC = 1u << 1,          /* extern __shared__ (size known at launch) */
  LDSAN_VAR_INDIRECT = 1u << 2,         /* reached from a non-kernel function */
};

typedef struct ldsan_kernel_desc {
  uint32_t magic;          /* LDSAN_DESC_MAGIC */
  uint32_t abi_version;    /* LDSAN_ABI_VERSION */
  uint32_t total_size;     /* bytes of the whole blob, a multiple of 8 */
  uint32_t var_count;      /* records following this header */
  uint32_t name;           /* string offset: the kernel's (mangled) symbol name */
  uint32_t static_size;    /* block offset where dynamic LDS starts */
  uint32_t max_align;      /* largest alignment of any LDS variable of the kernel */
  uint32_t flags;          /* ldsan_kernel_flags */
  uint32_t shadow;         /* byte offset of the static part's shadow image, or 0 */
  uint32_t reserved;
} ldsan_kernel_desc;
LDSAN_STATIC_ASSERT(sizeof(ldsan_kernel_desc) == 40, "kernel desc size");

typedef struct ldsan_var_desc {
  uint32_t offset;         /* from the block start */
  uint32_t size;           /* bytes of the variable (0 for dynamic: known at launch) */
  uint32_t redzone;        /* bytes of poisoned redzone after it (static only) */
  uint32_t align;          /* alignment of the original LDS variable */
  uint32_t flags;          /* ldsan_var_flags */
  uint32_t name;           /* string offset: IR (mangled) name */
  uint32_t source_name;    /* string offset: name in the source (debug info), or 0 */
  uint32_t file;           /* string offset: declaring file (debug info), or 0 */
  uint32_t line;           /* declaring line (debug info), or 0 */
  uint32_t reserved;
} ldsan_var_desc;
LDSAN_STATIC_ASSERT(sizeof(ldsan_var_desc) == 40, "var desc size");

/* ---------------------------------------------------------------------------
 * Report record and channel (device -> host).
 *
 * The channel is a ring of `capacity` slots that every dispatch of the code
 * object shares (several queues, several host threads), so the host drains the
 * records of one finished dispatch while others are still writing.
 *
 * Writer (a failing lane on the device):
 *   1. i = atomic_add(&next, 1), relaxed: a ticket; slot = records[i % capacity]
 *      (capacity clamped to 1..LDSAN_CHANNEL_CAPACITY; 0 means drop everything).
 *   2. CAS slot.state EMPTY -> WRITING. If it fails the slot still holds an
 *      undrained record (or one being written): atomic_add(&dropped, 1) and
 *      send nothing. Nothing already in the channel is ever overwritten.
 *   3. Fill every field, `dispatch` included, then store state = READY with
 *      release ordering at system scope.
 * Reader (host), after a dispatch completed: for every slot, load state with
 * acquire; a READY record whose `dispatch` lies in the finished dispatch's
 * kernel-argument range is final and belongs to it: print it, then store
 * EMPTY (release) to give the slot back. Records of other dispatches stay.
 * A WRITING slot belongs to a dispatch still running — or to a lane that died
 * mid-record (another lane of its wave trapped): once no dispatch can be running
 * (queue error, exit) the host counts such slots as lost and empties them.
 * First-report reserve: an error (not LDSAN_REPORT_WARNING) whose ring slot
 * is taken (step 2 fails) goes to first[], so that the first report of each
 * dispatch is kept however many records other dispatches left in the ring.
 * The writer probes first_owner[] from ldsan_first_slot(dispatch) on, all
 * LDSAN_CHANNEL_FIRST slots: a slot its dispatch owns already means the
 * dispatch has its record: it adds 1 to that slot's first_dropped and drops
 * the report; a free one (0) it takes with a CAS of first_owner from 0 to its
 * dispatch, then writes first[k] as steps 2-3 say. Only when every slot is
 * another dispatch's is the report counted in `dropped`.
 * Reader, after the ring: every slot whose owner lies in the finished
 * dispatch's range is its own: print a READY first[k] with its ring records,
 * take first_dropped[k] (atomic exchange to 0) as the dispatch's dropped
 * reports, store first[k].state = EMPTY, then first_owner[k] = 0 (release),
 * last.
 * `dropped` is taken by the host with an atomic exchange to 0; so is
 * `dropped_warnings`, where a writer counts a dropped LDSAN_REPORT_WARNING
 * record instead (those never stop a program).
 * `next` only grows (it wraps at 2^32; capacity divides 2^32).
 * ------------------------------------------------------------------------- */
#define LDSAN_RECORD_EMPTY 0u
#define LDSAN_RECORD_WRITING 0x57524954u /* 'WRIT': claimed, fields not final */
#define LDSAN_RECORD_READY 0x52454459u  /* 'REDY' */

enum ldsan_access_flags {
  LDSAN_ACCESS_WRITE = 1u << 0,         /* store (else load) */
  LDSAN_ACCESS_NOABORT = 1u << 1,       /* from a _noabort entry: execution continued */
  LDSAN_ACCESS_RANGE = 1u << 2,         /* from a range check (memcpy, _n): size is the range */
  LDSAN_ACCESS_ATOMIC = 1u << 3,        /* an atomic access (hazard reports) */
  LDSAN_REPORT_WARNING = 1u << 4,       /* a warning: printed and counted, never an error, never stops */
  LDSAN_REPORT_DEFERRED = 1u << 5,      /* found by the CPU emulator's run-time LDS checks and posted after
                                           the dispatch ran to its end: nothing was stopped */
  LDSAN_ACCESS_SAME_WAVE = 1u << 6,     /* a hazard's two work-items are lanes of one wave */
  LDSAN_REPORT_OTHER_UNKNOWN = 1u << 7, /* a hazard's other access is a read by some work-item of another
                                           wave the device did not record (other_* are 0) */
};

/* Which two accesses of an LDS_DATA_RACE conflict (the record's access is the
 * later one, other_* the earlier); for a BARRIER_DIVERGENCE, 0 or
 * LDSAN_HAZARD_BARRIER_SKIPPED. */
enum ldsan_hazard {
  LDSAN_HAZARD_RAW = 1,                 /* read-after-write */
  LDSAN_HAZARD_WAR = 2,                 /* write-after-read */
  LDSAN_HAZARD_WAW = 3,                 /* write-after-write */
  LDSAN_HAZARD_BARRIER_SKIPPED = 4,     /* barrier divergence: the record's work-item (at pc) skipped a
                                           barrier its wave passed, which work-item other_* passed (at
                                           other_pc): a barrier in a loop (or an if) the lanes of one wave
                                           passed a different number of times */
};

typedef struct ldsan_report_record {
  uint32_t state;            /* LDSAN_RECORD_EMPTY / _WRITING / _READY (written last) */
  uint32_t kind;             /* ldsan_report_kind */
  uint64_t address;          /* the bad address (first poisoned byte for ranges) */
  uint64_t access_address;   /* the address the access started at */
  uint64_t size;             /* access size in bytes (request size for allocator kinds) */
  uint64_t pc;               /* return address into the instrumented code, 0 unknown */
  uint64_t kernel_desc;      /* device address of the kernel's ldsan_kernel_desc, 0 unknown */
  uint64_t block;            /* this workgroup's LDS block, 0 unknown */
  uint32_t flags;            /* ldsan_access_flags */
  uint32_t shadow_byte;      /* the shadow value that made the access bad */
  uint32_t workgroup_id[3];
  uint32_t workitem_id[3];
  uint32_t lane;             /* lane within the wavefront */
  uint32_t dynamic_size;     /* exact dynamic LDS size of the dispatch, if known */
  uint64_t dispatch;         /* the dispatch's implicit-argument pointer (inside its kernarg
                                segment): tells which dispatch wrote the record */
  uint64_t freed_block;      /* an access to a finished workgroup's LDS (shadow LDS_FREED):
                                that block, whose header still names its kernel and owner;
                                0 unknown */
  /* The second access of a hazard (LDS_DATA_RACE, WAVE_SYNC_DEPENDENCE: the
   * earlier access; BARRIER_DIVERGENCE: a work-item that went elsewhere). */
  uint64_t other_pc;         /* 0 unknown */
  uint32_t other_workitem_id[3];
  uint32_t other_lane;
  uint32_t other_size;
  uint32_t other_flags;      /* LDSAN_ACCESS_WRITE, LDSAN_ACCESS_ATOMIC */
  uint32_t hazard;           /* ldsan_hazard (LDS_DATA_RACE), else 0 */
  /* Work-items that made the same report, folded by the record's writer (the
   * emulator's LDS checks count instead of posting each); 0 from the device. */
  uint32_t repeats;          /* more work-items of this record's workgroup */
  uint32_t repeats_elsewhere; /* work-items of other workgroups */
  uint32_t repeat_workgroups; /* how many other workgroups those are in */
} ldsan_report_record;
LDSAN_STATIC_ASSERT(sizeof(ldsan_report_record) == 160, "report record size");

#define LDSAN_CHANNEL_CAPACITY 256u  /* a power of two: ticket % capacity survives wrap-around */
#define LDSAN_CHANNEL_FIRST 64u      /* first-report slots: dispatches whose first error found the ring full */

typedef struct ldsan_report_channel {
  uint32_t abi_version;      /* LDSAN_ABI_VERSION */
  uint32_t capacity;         /* records[] entries usable, <= LDSAN_CHANNEL_CAPACITY */
  uint32_t next;             /* ticket counter: only grows */
  uint32_t dropped;          /* reports not recorded because their slot was taken */
  uint32_t dropped_warnings; /* warnings not recorded because their slot was taken */
  uint32_t reserved;
  ldsan_report_record records[LDSAN_CHANNEL_CAPACITY];
  /* The first-report reserve (protocol above). */
  uint64_t first_owner[LDSAN_CHANNEL_FIRST];   /* the dispatch (record.dispatch) owning slot k, 0 free */
  uint32_t first_dropped[LDSAN_CHANNEL_FIRST]; /* its errors dropped since its record there */
  ldsan_report_record first[LDSAN_CHANNEL_FIRST];
} ldsan_report_channel;
LDSAN_STATIC_ASSERT(sizeof(ldsan_report_channel) == 24 + 160 * LDSAN_CHANNEL_CAPACITY + 172 * LDSAN_CHANNEL_FIRST,
                    "channel size");

/* Where a dispatch's probe of the first-report reserve starts. */
static inline uint32_t ldsan_first_slot(uint64_t dispatch) {
  return (uint32_t)(((dispatch >> 4) * 0x9e3779b97f4a7c15ull) >> 40) % LDSAN_CHANNEL_FIRST;
}
LDSAN_STATIC_ASSERT((LDSAN_CHANNEL_CAPACITY & (LDSAN_CHANNEL_CAPACITY - 1)) == 0, "capacity a power of two");

/* ---------------------------------------------------------------------------
 * Device state: one per code object, symbol __ldsan_device_state. The device
 * initializes it statically; the host may overwrite fields before the first
 * dispatch (and only between dispatches).
 * ------------------------------------------------------------------------- */
#define LDSAN_DEVICE_STATE_SYMBOL "__ldsan_device_state"

enum ldsan_state_flags {
  LDSAN_STATE_HALT_ON_ERROR = 1u << 0,  /* aborting reports trap the wave (default) */
  LDSAN_STATE_SAME_WAVE_ERRORS = 1u << 1, /* LDS races within one wave are errors (detect_races=2) */
  LDSAN_STATE_LDS_CHECKS_OFF = 1u << 2, /* compiled-in LDS race/uninit checks do nothing (the CPU
                                           emulator's run-time checks replace them) */
  LDSAN_STATE_OWN_SHADOW = 1u << 3,     /* set by an LDS-only image (ldsan-cc -fsanitize=lds): the
                                           shadow of its pool is ldsan's own (shadow_offset), not
                                           ASan's mapping, which such a program does not have */
};

typedef struct ldsan_device_state {
  uint32_t abi_version;      /* LDSAN_ABI_VERSION, set by the device image */
  uint32_t flags;            /* ldsan_state_flags */
  uint64_t channel;          /* address of an ldsan_report_channel; 0: the built-in one */
  uint64_t pool_base;        /* the LDS backing pool the device uses, zero-filled (the pool keeps
                                its bookkeeping in itself): the image's initializer holds its
                                built-in pool (__ldsan_builtin_pool, a relocation the loader
                                applies), which the host replaces with the store it provides;
                                never 0 (before ldsan 2026-11-26, 0 meant the built-in pool:
                                a host must not write 0) */
  uint64_t pool_size;        /* its size in bytes (initially LDSAN_BUILTIN_POOL_SIZE) */
  uint64_t shadow_offset;    /* LDSAN_STATE_OWN_SHADOW images: shadow(addr) = (addr >> 3) +
                                shadow_offset for every address of the pool (the host allocates
                                that shadow with the pool, LDSAN_OWN_SHADOW_GUARD bytes of poisoned
                                store on each side); a multiple of 16, as ASan's offset is (the
                                runtime writes a 256-aligned block's shadow in whole 16-byte
                                units); 0: the shadow of the built-in pool. Unused by full-ASan
                                images (ASan's mapping, LDSAN_SHADOW_OFFSET) */
} ldsan_device_state;
LDSAN_STATIC_ASSERT(sizeof(ldsan_device_state) == 40, "device state size");

/* Bytes of store memory, shadowed as LDSAN_SHADOW_LDS_STORE, that the host puts
 * on each side of an LDS-only pool: an LDS access up to this far outside the
 * pool is reported, not a stray access to other memory. */
#define LDSAN_OWN_SHADOW_GUARD (1u << 20)

/* Built-in LDS backing pool of every code object (bytes): the small fallback
 * used where no ldsan host library gives the device its store (a program run
 * without it). 7 regions of 1 MiB. */
#define LDSAN_BUILTIN_POOL_SIZE (8u << 20)

#ifdef __cplusplus
}
#endif
#endif /* LDSAN_ABI_H */
