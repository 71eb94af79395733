// hsa_double/vram.cpp — one GPU's "VRAM": a memfd mapped twice.
//
//   dev  [PROT_NONE ...........................]  addresses handed to callers
//   rw   [READ|WRITE ..........................]  the same pages: the view
//         ^ both map offset 0..size of one memfd
//
// The host cannot dereference a device address (it faults, as VRAM does on a
// dGPU without large BAR); hsa_memory_copy, the loader and the simulated
// device go through `rw`. Both mappings are MAP_NORESERVE over a sparse memfd,
// so a 64 GiB pool costs address space only; pages exist once written.
// Freed ranges are hole-punched: they give their memory back and read as zero
// when allocated again (KFD hands out cleared VRAM too; callers should not rely
// on it on hardware).
//
// Allocation is first fit over a free list of granule-aligned ranges, under
// the arena's mutex.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

namespace hsad {

struct Arena {
  int fd = -1;
  uint8_t *dev = nullptr, *rw = nullptr;
  uint64_t size = 0;
  std::mutex lock;
  std::map<uint64_t, uint64_t> free_ranges;  // offset -> length, disjoint, not adjacent
};

Arena *arena_create(uint64_t size) {
  auto *a = new Arena;
  a->size = size;
  a->fd = memfd_create("hsa_double_vram", MFD_CLOEXEC);
  if (a->fd >= 0 && ftruncate(a->fd, off_t(size)) == 0) {
    void *dev = mmap(nullptr, size, PROT_NONE, MAP_SHARED | MAP_NORESERVE, a->fd, 0);
    void *rw = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, a->fd, 0);
    a->dev = dev == MAP_FAILED ? nullptr : static_cast<uint8_t *>(dev);
    a->rw = rw == MAP_FAILED ? nullptr : static_cast<uint8_t *>(rw);
  }
  if (!a->dev || !a->rw) {
    arena_destroy(a);
    return nullptr;
  }
  a->free_ranges[0] = size;
  return a;
}

void arena_destroy(Arena *a) {
  if (a->dev) munmap(a->dev, a->size);
  if (a->rw) munmap(a->rw, a->size);
  if (a->fd >= 0) close(a->fd);
  delete a;
}

uint64_t arena_alloc(Arena *a, uint64_t size) {
  if (size == 0 || size > a->size) return 0;
  size = (size + kGranule - 1) & ~(kGranule - 1);
  std::lock_guard<std::mutex> lock(a->lock);
  for (auto it = a->free_ranges.begin(); it != a->free_ranges.end(); ++it) {
    if (it->second < size) continue;
    uint64_t offset = it->first, rest = it->second - size;
    a->free_ranges.erase(it);
    if (rest) a->free_ranges[offset + size] = rest;
    return reinterpret_cast<uint64_t>(a->dev) + offset;
  }
  return 0;
}

void arena_free(Arena *a, uint64_t addr, uint64_t size) {
  size = (size + kGranule - 1) & ~(kGranule - 1);
  uint64_t offset = addr - reinterpret_cast<uint64_t>(a->dev);
  fallocate(a->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off_t(offset), off_t(size));
  std::lock_guard<std::mutex> lock(a->lock);
  auto next = a->free_ranges.lower_bound(offset);
  if (next != a->free_ranges.end() && offset + size == next->first) {  // merge with the range after
    size += next->second;
    next = a->free_ranges.erase(next);
  }
  if (next != a->free_ranges.begin()) {  // merge with the range before
    auto prev = std::prev(next);
    if (prev->first + prev->second == offset) {
      prev->second += size;
      return;
    }
  }
  a->free_ranges[offset] = size;
}

bool arena_contains(const Arena *a, uint64_t addr) {
  uint64_t base = reinterpret_cast<uint64_t>(a->dev);
  return addr >= base && addr - base < a->size;
}

uint8_t *arena_rw(const Arena *a, uint64_t addr) { return a->rw + (addr - reinterpret_cast<uint64_t>(a->dev)); }

}  // namespace hsad
