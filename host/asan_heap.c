/* ldsan host library: a bad device address in host ASan's heap, described as
 * ASan describes heap memory. On the CPU emulator hipMalloc is the malloc
 * family (emulator/hip/memory.c), so in a program built with
 * -fsanitize=address a kernel's overflow of a hipMalloc buffer lands in an
 * ASan heap chunk: its region ("located 0 bytes after 400-byte region
 * [begin,end)") and the host stacks that allocated (and freed) it come from
 * ASan's public debugging interface (compiler-rt's sanitizer/asan_interface.h:
 * __asan_locate_address, __asan_get_alloc_stack, __asan_get_free_stack),
 * referenced weakly: a program without ASan (an -fsanitize=lds build) has
 * none, and the report says what it said before. On a GPU, device memory is
 * not ASan heap: the lookup says so and nothing changes (a host allocation
 * the GPU reaches, with HMM, is described like the emulator's).
 * Threading: called with the report mutex held. */
#include <string.h>

#include "report_ctx.h"

/* compiler-rt include/sanitizer/asan_interface.h; absent without ASan. */
extern const char *__asan_locate_address(void *addr, char *name, size_t name_size, void **region_address,
                                         size_t *region_size) __attribute__((weak));
extern size_t __asan_get_alloc_stack(void *addr, void **trace, size_t size, int *thread_id) __attribute__((weak));
extern size_t __asan_get_free_stack(void *addr, void **trace, size_t size, int *thread_id) __attribute__((weak));

/* One stack from ASan: its pcs (each the call before a return address) as
 * return addresses, the form ldsan_symbolize_host_pc takes. */
static uint32_t take_stack(size_t (*get)(void *, void **, size_t, int *), uint64_t addr, uint64_t *pcs,
                           int *thread) {
  void *trace[LDSAN_HEAP_STACK_FRAMES];
  *thread = -1;
  if (!get) return 0;
  size_t n = get((void *)(uintptr_t)addr, trace, LDSAN_HEAP_STACK_FRAMES, thread);
  if (n > LDSAN_HEAP_STACK_FRAMES) n = LDSAN_HEAP_STACK_FRAMES;
  for (size_t i = 0; i < n; i++) pcs[i] = (uint64_t)(uintptr_t)trace[i] + 1;
  return (uint32_t)n;
}

int ldsan_heap_region_of(uint64_t addr, ldsan_heap_region *h) {
  memset(h, 0, sizeof *h);
  if (!__asan_locate_address || !addr) return 0;
  void *begin = NULL;
  size_t size = 0;
  const char *kind = __asan_locate_address((void *)(uintptr_t)addr, NULL, 0, &begin, &size);
  if (!kind || strcmp(kind, "heap") != 0 || !begin) return 0;
  h->begin = (uint64_t)(uintptr_t)begin;
  h->size = size;
  h->alloc_depth = take_stack(__asan_get_alloc_stack, addr, h->alloc_pcs, &h->alloc_thread);
  h->free_depth = take_stack(__asan_get_free_stack, addr, h->free_pcs, &h->free_thread);
  return 1;
}

const char *ldsan_heap_relation(uint64_t addr, const ldsan_heap_region *h, uint64_t *distance) {
  if (addr < h->begin) { *distance = h->begin - addr; return "before"; }
  if (addr >= h->begin + h->size) { *distance = addr - (h->begin + h->size); return "after"; }
  *distance = addr - h->begin;
  return "inside of";
}

int ldsan_heap_symbolize(uint64_t pc, ldsan_frame *frames, int max_frames) {
  int n = ldsan_symbolize_host_pc(pc, frames, max_frames);
  for (int k = 0; k < n; k++) {  /* ASan's interceptor of the allocation: its name as ASan prints it */
    const char *fn = frames[k].function;
    if (fn && !strncmp(fn, "___interceptor_", 15)) frames[k].function = fn + 15;
    else if (fn && !strncmp(fn, "__interceptor_", 14)) frames[k].function = fn + 14;
  }
  return n;
}

/* "allocated by thread T0 here:" and its frames, as ASan prints them. */
static void print_stack(FILE *out, const char *what, int thread, const uint64_t *pcs, uint32_t depth) {
  if (thread >= 0) fprintf(out, "%s by thread T%d here:\n", what, thread);
  else fprintf(out, "%s by an unknown thread here:\n", what);
  int printed = 0;
  for (uint32_t i = 0; i < depth; i++) {
    ldsan_frame frames[LDSAN_MAX_FRAMES];
    int n = ldsan_heap_symbolize(pcs[i], frames, LDSAN_MAX_FRAMES);
    if (n <= 0) {
      fprintf(out, "    #%d 0x%llx  (<unknown module>)\n", printed++, (unsigned long long)pcs[i]);
      continue;
    }
    for (int k = 0; k < n; k++) ldsan_print_host_frame(out, printed++, pcs[i], &frames[k]);
  }
  if (!depth) fputs("    <empty stack: ASan keeps none for this chunk (option malloc_context_size=0?)>\n", out);
}

void ldsan_report_describe_heap(FILE *out, ldsan_decorator d, const report_ctx *c) {
  const ldsan_heap_region *h = &c->heap;
  uint64_t distance;
  const char *how = ldsan_heap_relation(c->r->address, h, &distance);
  fprintf(out, "%s0x%llx is located %llu bytes %s %llu-byte region [0x%llx,0x%llx)%s\n", ldsan_deco_location(d),
          (unsigned long long)c->r->address, (unsigned long long)distance, how, (unsigned long long)h->size,
          (unsigned long long)h->begin, (unsigned long long)(h->begin + h->size), ldsan_deco_end(d));
  if (h->free_depth) {
    print_stack(out, "freed", h->free_thread, h->free_pcs, h->free_depth);
    fputc('\n', out);
    print_stack(out, "previously allocated", h->alloc_thread, h->alloc_pcs, h->alloc_depth);
  } else {
    print_stack(out, "allocated", h->alloc_thread, h->alloc_pcs, h->alloc_depth);
  }
}
