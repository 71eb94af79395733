/* ldsan host: one record -> one report. Checks the headline, access line, ids,
 * variable description, layout, shadow dump and SUMMARY for each bug kind. */
#include "host_test.h"

static fake_memory mem_map;

/* Prints r into a buffer (also echoed to stderr for the test log). */
static char *report(const ldsan_report_record *r, const ldsan_dispatch_info *di) {
  capture c;
  capture_begin(&c);
  ldsan_device_memory mem = fake_reader(&mem_map);
  ldsan_host_print_record(r, &mem, di, c.f);
  const char *out = capture_end(&c);
  fputs(out, stderr);
  return c.buf;
}

static void test_static_overflow(void) {
  ldsan_report_record r = mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
  char *out = report(&r, &mini_dispatch);
  char line[256];
  snprintf(line, sizeof line, "==%ld==ERROR: AddressSanitizer: lds-buffer-overflow on address 0x%llx at pc 0x7f0000001234 on amdgpu device 0 (gfx90a:xnack+)\n",
           (long)getpid(), (unsigned long long)(MINI_BLOCK + 288));
  CHECK(strncmp(out, "=================================================================\n", 66) == 0);
  CHECK_HAS(out, line);
  snprintf(line, sizeof line, "\nWRITE of size 4 at 0x%llx thread (work-item) (64,0,0) lane 0 of workgroup (3,1,0) in kernel k1(int*, int)\n",
           (unsigned long long)(MINI_BLOCK + 288));
  CHECK_HAS(out, line);
  CHECK_HAS(out, "    #0 0x7f0000001234  (<unknown module>)\n");  /* no symbolizer */
  CHECK_HAS(out, "is located 0 bytes after LDS variable 'tile' of size 256 (k1(int*, int)::tile, declared at mini.hip:12)\n");
  CHECK_HAS(out, "  in the LDS of kernel k1(int*, int): LDS offset 288, variable at LDS offset 32..288\n");
  CHECK_HAS(out, "LDS layout of k1(int*, int) (block 0x20000, static 448 bytes, dynamic 0 bytes):\n");
  CHECK_HAS(out, "  [0, 8) compiler LDS pointer slot\n");
  CHECK_HAS(out, "  [32, 288) 'tile' size 256, redzone 64 <== memory access is 0 bytes after this variable\n");
  CHECK_HAS(out, "  [352, 388) 'other' size 36, redzone 60\n");
  CHECK_HAS(out, "Shadow bytes around the buggy address:\n");
  CHECK_HAS(out, "=>0x00007fffc020: 00 00 00 00[e1]e1 e1 e1 e1 e1 e1 e1 00 00 00 00\n");
  CHECK_HAS(out, "  LDS variable redzone:");
  CHECK_HAS(out, "  Heap left redzone:");
  CHECK_HAS(out, "SUMMARY: AddressSanitizer: lds-buffer-overflow in k1(int*, int)\n");
  snprintf(line, sizeof line, "SUMMARY: AddressSanitizer: lds-buffer-overflow in k1(int*, int)\n==%ld==ABORTING\n", (long)getpid());
  CHECK_HAS(out, line);
  CHECK_STREQ(ldsan_host_bug_name(&r), "lds-buffer-overflow");
  free(out);

  /* Further into the redzone, a read: "N bytes after", READ, no ABORTING for noabort. */
  r = mini_record(300, 2, 0, LDSAN_SHADOW_LDS_REDZONE);
  r.flags |= LDSAN_ACCESS_NOABORT;
  out = report(&r, &mini_dispatch);
  CHECK_HAS(out, "\nREAD of size 2 at ");
  CHECK_HAS(out, "is located 12 bytes after LDS variable 'tile' of size 256");
  CHECK_HAS(out, "(recoverable check: the lane continued)");
  CHECK_LACKS(out, "ABORTING");
  free(out);

  /* A variable with no source name shows its demangled IR name's last part. */
  r = mini_record(400, 8, 1, LDSAN_SHADOW_LDS_REDZONE);
  out = report(&r, &mini_dispatch);
  CHECK_HAS(out, "is located 12 bytes after LDS variable 'other' of size 36 (k1(int*, int)::other, declared at mini.hip:13)");
  free(out);
}

static void test_partial_granule(void) {
  /* other ends at 388: granule 384 has shadow 04. */
  ldsan_report_record r = mini_record(388, 4, 0, 4);
  char *out = report(&r, &mini_dispatch);
  CHECK_HAS(out, "ERROR: AddressSanitizer: lds-buffer-overflow on address");
  CHECK_HAS(out, "is located 0 bytes after LDS variable 'other' of size 36");
  CHECK_HAS(out, "Shadow bytes around the buggy address:\n");
  CHECK_HAS(out, "=>0x00007fffc030:[04]e1 e1 e1 e1 e1 e1 e1 e3 e3 e3 e3 e3 e3 e3 e3\n");
  free(out);
  /* As the device records it: the first bad byte, the next granule's value, the access start. */
  r = mini_record(388, 4, 0, LDSAN_SHADOW_LDS_REDZONE);
  r.access_address = MINI_BLOCK + 386;
  out = report(&r, &mini_dispatch);
  CHECK_HAS(out, "ERROR: AddressSanitizer: lds-buffer-overflow on address 0x20184 ");
  CHECK_HAS(out, "READ of size 4 at 0x20182 (first bad byte 0x20184) thread");
  CHECK_HAS(out, "0x20184 is located 0 bytes after LDS variable 'other' of size 36");
  CHECK_HAS(out, "Shadow bytes around the buggy address:\n");
  CHECK_HAS(out, "=>0x00007fffc030:[04]e1 e1");
  free(out);
  r = mini_record(388, 4, 0, 4);
  /* Without a block or descriptor: ASan's rule, the next granule's shadow (fa). */
  r.block = 0;
  r.kernel_desc = 0;
  r.address = 0x1000;  /* not mapped: next-granule shadow unreadable */
  out = report(&r, NULL);
  CHECK_HAS(out, "ERROR: AddressSanitizer: unknown-crash on address 0x1000");
  CHECK_HAS(out, "the record names no LDS block");
  free(out);
  r.address = MINI_BLOCK - 1024 + 4;  /* shadow mapped there, fa all around */
  out = report(&r, NULL);
  CHECK_HAS(out, "ERROR: AddressSanitizer: heap-buffer-overflow on address");
  free(out);
}

static void test_underflow_and_slot(void) {
  ldsan_report_record r = mini_record(-8, 4, 0, LDSAN_SHADOW_LDS_BLOCK_HEADER);
  char *out = report(&r, &mini_dispatch);
  CHECK_HAS(out, "ERROR: AddressSanitizer: lds-buffer-underflow on address");
  CHECK_HAS(out, "is located 8 bytes before the start of the LDS block of kernel k1(int*, int) (in ldsan's block header)");
  CHECK_HAS(out, "  [-64, 0) ldsan block header <== memory access is 8 bytes before the block\n");
  CHECK_HAS(out, "LDS offset -8\n");
  free(out);
  /* Inside the 8-byte slot itself. */
  r = mini_record(4, 4, 1, LDSAN_SHADOW_LDS_COMPILER_SLOT);
  out = report(&r, &mini_dispatch);
  CHECK_HAS(out, "ERROR: AddressSanitizer: lds-buffer-underflow on address");
  CHECK_HAS(out, "is located 4 bytes into the compiler's LDS pointer slot of kernel k1(int*, int)");
  CHECK_HAS(out, "  [0, 8) compiler LDS pointer slot <== memory access is 4 bytes into the slot\n");
  free(out);
  /* In the slot's padding, which the compiler poisons as a redzone (0xe1):
   * that is tile[-4], an underflow of the first variable. */
  r = mini_record(16, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
  out = report(&r, &mini_dispatch);
  CHECK_HAS(out, "ERROR: AddressSanitizer: lds-buffer-underflow on address");
  CHECK_HAS(out, "is located 16 bytes before LDS variable 'tile' of size 256");
  CHECK_HAS(out, "  [32, 288) 'tile' size 256, redzone 64 <== memory access is 16 bytes before this variable\n");
  CHECK_HAS(out, "SUMMARY: AddressSanitizer: lds-buffer-underflow");
  free(out);
}

static void test_dynamic(void) {
  fake_free(&mem_map);
  mini_setup(&mem_map, 100, 1);
  ldsan_report_record r = mini_record(MINI_STATIC + 100, 4, 1, LDSAN_SHADOW_LDS_DYNAMIC_TAIL);
  r.dynamic_size = 100;
  char *out = report(&r, &mini_dispatch);
  CHECK_HAS(out, "ERROR: AddressSanitizer: dynamic-lds-buffer-overflow on address");
  CHECK_HAS(out, "is located 0 bytes after the end of dynamic LDS of size 100 (the launch's dynamic LDS size): dynamic LDS 'dyn' of size 100 (the launch's dynamic LDS size)");
  CHECK_HAS(out, "  [448, 548) 'dyn' dynamic, size 100 <== memory access is 0 bytes after the end of dynamic LDS\n");
  CHECK_HAS(out, "static 448 bytes, dynamic 100 bytes");
  CHECK_HAS(out, "SUMMARY: AddressSanitizer: dynamic-lds-buffer-overflow in k1(int*, int)\n");
  free(out);
  /* Record without dynamic_size: taken from the block header. Partial granule at the end (100 % 8 = 4). */
  r = mini_record(MINI_STATIC + 100, 4, 0, 4);
  out = report(&r, &mini_dispatch);
  CHECK_HAS(out, "ERROR: AddressSanitizer: dynamic-lds-buffer-overflow on address");
  CHECK_HAS(out, "[04]e3");
  free(out);
  fake_free(&mem_map);
  mini_setup(&mem_map, 0, 0);
}

static void test_after_exit_reconstructs_shadow(void) {
  /* The workgroup exited: the live shadow of the whole block is e4 now. */
  fake_poison(&mem_map, MINI_BLOCK - 64, MINI_BLOCK + MINI_STATIC + 64, LDSAN_SHADOW_LDS_FREED);
  ldsan_report_record r = mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
  char *out = report(&r, &mini_dispatch);
  CHECK_HAS(out, "lds-buffer-overflow");
  CHECK_HAS(out, "as the kernel's LDS descriptor lays out this block; the live shadow now holds e4, not the recorded e1: the workgroup has exited");
  CHECK_HAS(out, "=>0x00007fffc020: 00 00 00 00[e1]e1 e1 e1 e1 e1 e1 e1 00 00 00 00\n");
  CHECK_HAS(out, "  0x00007fffbff0: .. .. .. .. .. .. .. .. e2 e2 e2 e2 e2 e2 e2 e2\n");
  CHECK_HAS(out, "  0x00007fffc000: e5 e5 e5 e5 00 00 00 00 00 00 00 00 00 00 00 00\n");
  CHECK_HAS(out, "  0x00007fffc030: 04 e1 e1 e1 e1 e1 e1 e1 e3 e3 e3 e3 e3 e3 e3 e3\n");
  free(out);
  /* A genuine use after exit: the shadow is e4 both in the record and live. */
  r = mini_record(40, 4, 0, LDSAN_SHADOW_LDS_FREED);
  out = report(&r, &mini_dispatch);
  CHECK_HAS(out, "ERROR: AddressSanitizer: lds-use-after-workgroup-exit on address");
  CHECK_HAS(out, "is located 8 bytes inside of LDS variable 'tile' of size 256");
  CHECK_HAS(out, "Shadow bytes around the buggy address:\n");
  CHECK_HAS(out, "[e4]");
  free(out);
  fake_free(&mem_map);
  mini_setup(&mem_map, 0, 0);
}

static void test_global_memory(void) {
  ldsan_report_record r = mini_record(0, 8, 1, 0xfa);
  r.address = MINI_BLOCK + 1024;  /* past the chunk: global memory */
  char *out = report(&r, &mini_dispatch);
  CHECK_HAS(out, "ERROR: AddressSanitizer: heap-buffer-overflow on address");
  CHECK_HAS(out, "is not in this workgroup's LDS block [0x20000, 0x20200): global memory");
  CHECK_LACKS(out, "LDS layout of");
  free(out);
  r.shadow_byte = 0xfd;
  CHECK_STREQ(ldsan_host_bug_name(&r), "heap-use-after-free");
  r.shadow_byte = 0xf9;
  CHECK_STREQ(ldsan_host_bug_name(&r), "global-buffer-overflow");
  r.shadow_byte = 0xf7;
  CHECK_STREQ(ldsan_host_bug_name(&r), "use-after-poison");
  r.shadow_byte = 0x42;
  CHECK_STREQ(ldsan_host_bug_name(&r), "unknown-crash");
  r.shadow_byte = LDSAN_SHADOW_LDS_FREED;
  CHECK_STREQ(ldsan_host_bug_name(&r), "lds-use-after-workgroup-exit");
}

/* A bad address outside LDS in host ASan's heap (this test runs under ASan):
 * ASan's description of the region and the stack that allocated it; a
 * freed chunk adds the stack that freed it. Outside the heap, with no block:
 * global memory, said so. */
static void test_heap_region(void) {
  char *buf = malloc(400);  /* the allocation */
  CHECK(buf != NULL);
  ldsan_report_record r = mini_record(0, 4, 1, 0xfa);
  r.block = 0;
  r.address = r.access_address = (uint64_t)(uintptr_t)(buf + 400);
  char *out = report(&r, &mini_dispatch);
  char want[256];
  snprintf(want, sizeof want, "\n0x%llx is located 0 bytes after 400-byte region [0x%llx,0x%llx)\nallocated by thread T0 here:\n    #0 0x",
           (unsigned long long)r.address, (unsigned long long)(uintptr_t)buf, (unsigned long long)r.address);
  CHECK_HAS(out, want);
  CHECK_HAS(out, " in malloc ");
  snprintf(want, sizeof want, " in test_heap_region test/host/report_test.c:%d:", __LINE__ - 11);
  CHECK_HAS(out, want);
  CHECK_HAS(out, "SUMMARY: AddressSanitizer: heap-buffer-overflow in k1(int*, int)\n");
  free(out);
  ldsan_flags_parse("report_format=json", stderr);
  out = report(&r, &mini_dispatch);
  CHECK_HAS(out, ",\"region\":{\"kind\":\"heap\",\"begin\":\"0x");
  CHECK_HAS(out, "\"size\":400,\"offset\":400,\"allocated_by\":{\"thread\":0,\"frames\":[{\"pc\":\"0x");
  CHECK_HAS(out, "\"function\":\"test_heap_region\",\"location\":\"test/host/report_test.c:");
  CHECK_HAS(out, "]},\"freed_by\":null}}\n");
  json_object o;
  strchr(out, '\n')[1] = 0;
  CHECK_JSON_REPORT(out, &o);
  free(out);
  ldsan_flags_parse("report_format=text", stderr);
  free(buf);
  r.shadow_byte = 0xfd;
  r.address = r.access_address = (uint64_t)(uintptr_t)(buf + 8);
  out = report(&r, &mini_dispatch);
  CHECK_HAS(out, "ERROR: AddressSanitizer: heap-use-after-free on address");
  CHECK_HAS(out, " is located 8 bytes inside of 400-byte region [");
  CHECK_HAS(out, ")\nfreed by thread T0 here:\n    #0 0x");
  CHECK_HAS(out, "\n\npreviously allocated by thread T0 here:\n    #0 0x");
  free(out);
  /* Not in ASan's heap: global memory, without a region. */
  static const char far_away[64];
  r.shadow_byte = 0xfa;
  r.address = r.access_address = (uint64_t)(uintptr_t)far_away;
  out = report(&r, &mini_dispatch);
  CHECK_HAS(out, " is global memory (shadow byte 0xfa is ASan's, not an LDS one) in no heap chunk host ASan knows: device memory");
  CHECK_LACKS(out, "allocated by");
  free(out);
}

/* What the fake symbolizer says for pc 0x7f0000001234 (nothing for other pcs). */
typedef struct fake_answer { int n; ldsan_frame f[4]; } fake_answer;
#define FAKE_MODULE "/opt/app/k.co"
static const fake_answer default_answer = {1, {{"k1(int*, int)", "mini.hip", 20, 13, FAKE_MODULE, 0x1234}}};

static int fake_symbolize(void *ctx, uint64_t pc, ldsan_frame *frames, int max_frames) {
  const fake_answer *a = ctx ? ctx : &default_answer;
  if (pc != 0x7f0000001234ull) return 0;
  int n = a->n < max_frames ? a->n : max_frames;
  memcpy(frames, a->f, (size_t)n * sizeof *frames);
  return n;
}

static void test_symbolizer_and_range(void) {
  ldsan_dispatch_info di = mini_dispatch;
  di.symbolize = fake_symbolize;
  ldsan_report_record r = mini_record(288, 64, 1, LDSAN_SHADOW_LDS_REDZONE);
  r.flags |= LDSAN_ACCESS_RANGE;
  r.access_address = MINI_BLOCK + 256;
  char *out = report(&r, &di);
  CHECK_HAS(out, "\n    #0 0x7f0000001234 in k1(int*, int) mini.hip:20:13\n\n");
  CHECK_HAS(out, "WRITE of size 64 at 0x20100 (first bad byte 0x20120) thread");
  /* ASan's SUMMARY form: bug, file:line:col, function. */
  CHECK_HAS(out, "\nSUMMARY: AddressSanitizer: lds-buffer-overflow mini.hip:20:13 in k1(int*, int)\n");
  free(out);
  r.pc = 0;
  out = report(&r, &di);
  CHECK_HAS(out, "    #0 <pc unknown> in kernel k1(int*, int)\n");
  CHECK_HAS(out, "\nSUMMARY: AddressSanitizer: lds-buffer-overflow in k1(int*, int)\n");
  free(out);
}

/* Which files are the HIP runtime's and the compiler's headers (program_frame.c). */
static void test_program_frame(void) {
  static const struct { const char *file; int header; } files[] = {
      {"/usr/include/hip/amd_detail/amd_device_functions.h", 1},
      {"/opt/rocm-6.4.0/include/hip/amd_detail/amd_hip_atomic.h", 1},
      {"/opt/rocm/lib/llvm/bin/../../../include/hip/amd_detail/amd_hip_vector_types.h", 1},
      {"hip/amd_detail/amd_warp_functions.h", 1},
      {"/usr/lib/llvm-22/lib/clang/22/include/__clang_hip_math.h", 1},
      {"/opt/rocm/lib/llvm/lib/clang/19/include/__clang_cuda_complex_builtins.h", 1},
      {"/usr/lib/llvm-22/lib/clang/22/include/amdgpuintrin.h", 1},
      {"mini.hip", 0},
      {"src/hip/kernels.hip", 0},          /* a program's own directory named hip */
      {"hip/scan.hip", 0},
      {"/opt/rocm/include/rocprim/block/block_scan.hpp", 0},  /* library code is the program's */
      {"/opt/rocm/include/hipcub/block/block_reduce.hpp", 0},
      {"include/tile.h", 0},
      {"/usr/lib/clang/include/x.h", 0},   /* not the resource directory's form */
  };
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    ldsan_frame f = {"f", files[i].file, 1, 1, NULL, 0};
    if (ldsan_frame_in_toolchain_header(&f) != files[i].header) {
      fprintf(stderr, "ldsan_frame_in_toolchain_header(\"%s\") is not %d\n", files[i].file, files[i].header);
      CHECK_EQ(ldsan_frame_in_toolchain_header(&f), files[i].header);
    }
  }
  ldsan_frame none = {"f", NULL, 0, 0, NULL, 0};
  CHECK_EQ(ldsan_frame_in_toolchain_header(&none), 0);
  CHECK_EQ(ldsan_program_frame(NULL, 0), 0);
}

/* Each shape of answer: the frame lines and the SUMMARY; options symbolize and print_summary. */
static void test_summary_forms(void) {
  static const struct { fake_answer a; const char *frames, *summary; } forms[] = {
      {{2, {{"helper(int)", "dir/mini.hip", 31, 7, FAKE_MODULE, 0x1234}, {"k1(int*, int)", "mini.hip", 40, 5, FAKE_MODULE, 0x1234}}},
       "    #0 0x7f0000001234 in helper(int) dir/mini.hip:31:7\n    #1 0x7f0000001234 in k1(int*, int) mini.hip:40:5\n",
       "lds-buffer-overflow dir/mini.hip:31:7 in helper(int)"},
      {{1, {{"helper(int)", "mini.hip", 31, 0, FAKE_MODULE, 0x1234}}},
       "    #0 0x7f0000001234 in helper(int) mini.hip:31\n", "lds-buffer-overflow mini.hip:31 in helper(int)"},
      {{1, {{"helper(int)", "mini.hip", 0, 0, NULL, 0}}},
       "    #0 0x7f0000001234 in helper(int) mini.hip\n", "lds-buffer-overflow mini.hip in helper(int)"},
      {{1, {{NULL, "mini.hip", 31, 7, FAKE_MODULE, 0x1234}}},
       "    #0 0x7f0000001234  mini.hip:31:7\n", "lds-buffer-overflow mini.hip:31:7 in k1(int*, int)"},
      {{1, {{"helper(int)", NULL, 0, 0, FAKE_MODULE, 0x1234}}},
       "    #0 0x7f0000001234 in helper(int) (/opt/app/k.co+0x1234)\n",
       "lds-buffer-overflow (/opt/app/k.co+0x1234) in helper(int)"},
      {{1, {{NULL, NULL, 0, 0, FAKE_MODULE, 0x1234}}},
       "    #0 0x7f0000001234  (/opt/app/k.co+0x1234)\n", "lds-buffer-overflow (/opt/app/k.co+0x1234) in k1(int*, int)"},
      {{1, {{"helper(int)", NULL, 0, 0, NULL, 0}}},
       "    #0 0x7f0000001234 in helper(int)\n", "lds-buffer-overflow in helper(int)"},
      {{0, {{NULL, NULL, 0, 0, NULL, 0}}},
       "    #0 0x7f0000001234  (<unknown module>)\n", "lds-buffer-overflow in k1(int*, int)"},
      /* Code inlined from the HIP headers: every frame listed, the SUMMARY names the program's line. */
      {{3, {{"atomicAdd(unsigned int*, unsigned int)", "/usr/include/hip/amd_detail/amd_hip_atomic.h", 153, 10, FAKE_MODULE, 0x1234},
            {"__ocml_fma_f32", "/usr/lib/llvm-22/lib/clang/22/include/__clang_hip_math.h", 7, 1, FAKE_MODULE, 0x1234},
            {"k1(int*, int)", "mini.hip", 40, 5, FAKE_MODULE, 0x1234}}},
       "    #0 0x7f0000001234 in atomicAdd(unsigned int*, unsigned int) /usr/include/hip/amd_detail/amd_hip_atomic.h:153:10\n"
       "    #1 0x7f0000001234 in __ocml_fma_f32 /usr/lib/llvm-22/lib/clang/22/include/__clang_hip_math.h:7:1\n"
       "    #2 0x7f0000001234 in k1(int*, int) mini.hip:40:5\n",
       "lds-buffer-overflow mini.hip:40:5 in k1(int*, int)"},
      /* Only header frames: the outermost. */
      {{2, {{"__work_group_barrier(unsigned int)", "hip/amd_detail/amd_device_functions.h", 891, 9, FAKE_MODULE, 0x1234},
            {"__syncthreads()", "hip/amd_detail/amd_device_functions.h", 910, 3, FAKE_MODULE, 0x1234}}},
       "    #0 0x7f0000001234 in __work_group_barrier(unsigned int) hip/amd_detail/amd_device_functions.h:891:9\n"
       "    #1 0x7f0000001234 in __syncthreads() hip/amd_detail/amd_device_functions.h:910:3\n",
       "lds-buffer-overflow hip/amd_detail/amd_device_functions.h:910:3 in __syncthreads()"},
  };
  ldsan_report_record r = mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
  for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
    ldsan_dispatch_info di = mini_dispatch;
    di.symbolize = fake_symbolize;
    di.symbolize_ctx = (void *)&forms[i].a;
    char *out = report(&r, &di);
    char line[1024];
    snprintf(line, sizeof line, " in kernel k1(int*, int)\n%s\n", forms[i].frames);  /* every frame, nothing more */
    CHECK_HAS(out, line);
    snprintf(line, sizeof line, "\nSUMMARY: AddressSanitizer: %s\n", forms[i].summary);
    CHECK_HAS(out, line);
    free(out);
  }
  /* symbolize=0: the module and offset only, whatever the backend knows. */
  ldsan_dispatch_info di = mini_dispatch;
  di.symbolize = fake_symbolize;
  di.symbolize_ctx = (void *)&forms[0].a;
  ldsan_flags_parse("symbolize=0", stderr);
  char *out = report(&r, &di);
  CHECK_HAS(out, " in kernel k1(int*, int)\n    #0 0x7f0000001234  (/opt/app/k.co+0x1234)\n\n");
  CHECK_HAS(out, "\nSUMMARY: AddressSanitizer: lds-buffer-overflow (/opt/app/k.co+0x1234) in k1(int*, int)\n");
  CHECK_LACKS(out, "helper");
  free(out);
  di.symbolize_ctx = (void *)&forms[6].a;  /* ... and nothing without a module */
  out = report(&r, &di);
  CHECK_HAS(out, " in kernel k1(int*, int)\n    #0 0x7f0000001234  (<unknown module>)\n\n");
  CHECK_HAS(out, "\nSUMMARY: AddressSanitizer: lds-buffer-overflow in k1(int*, int)\n");
  free(out);
  di.symbolize_ctx = NULL;
  ldsan_flags_parse("symbolize=1:print_summary=0", stderr);
  out = report(&r, &di);
  CHECK_LACKS(out, "SUMMARY");
  CHECK_HAS(out, "    #0 0x7f0000001234 in k1(int*, int) mini.hip:20:13\n");
  char line[64];
  snprintf(line, sizeof line, "\n==%ld==ABORTING\n", (long)getpid());
  CHECK_HAS(out, line);
  free(out);
  r.kind = LDSAN_REPORT_POOL_EXHAUSTED;
  out = report(&r, &di);
  CHECK_HAS(out, "HINT: every workgroup in flight");
  CHECK_HAS(out, "\n    #0 0x7f0000001234 in k1(int*, int) mini.hip:20:13\nHINT: ");
  CHECK_LACKS(out, "SUMMARY");
  free(out);
  ldsan_flags_parse("print_summary=1", stderr);
}

static void test_allocator_kinds(void) {
  ldsan_report_record r = mini_record(0, 0, 0, 0);
  r.kind = LDSAN_REPORT_POOL_EXHAUSTED;
  r.size = 576;
  r.address = 0;
  r.block = 0;
  /* The host gave the device a 96 MiB store: the messages say so. */
  ldsan_dispatch_info with_store = mini_dispatch;
  with_store.lds_store_size = 96ull << 20;
  char *out = report(&r, &with_store);
  CHECK_HAS(out, "ERROR: AddressSanitizer: lds-pool-exhausted on amdgpu device 0 (gfx90a:xnack+)\n");
  CHECK_HAS(out, "cannot allocate an LDS block of 576 bytes for kernel k1(int*, int): the LDS backing pool is full\n");
  CHECK_HAS(out, "workgroup (3,1,0)");
  CHECK_HAS(out, "HINT: every workgroup in flight holds one block; the LDS backing store holds 100663296 bytes. ");
  CHECK_HAS(out, "(LDSAN_OPTIONS=lds_pool_size=192M: twice this)");
  CHECK_HAS(out, "SUMMARY: AddressSanitizer: lds-pool-exhausted in k1(int*, int)\n");
  free(out);
  r.kind = LDSAN_REPORT_BLOCK_TOO_LARGE;
  r.size = 1ull << 30;
  out = report(&r, &with_store);
  CHECK_HAS(out, "lds-block-too-large");
  CHECK_HAS(out, "larger than the whole LDS backing store (100663296 bytes)\n");
  free(out);
  /* No store (the device could not get one): the code object's built-in pool. */
  out = report(&r, &mini_dispatch);
  CHECK_HAS(out, "larger than the whole LDS backing store (8388608 bytes)\n");
  CHECK_HAS(out, "LDSAN_OPTIONS=lds_pool_size=...");
  free(out);
  r.kind = LDSAN_REPORT_BAD_FREE;
  r.address = 0xdead00;
  out = report(&r, &mini_dispatch);
  CHECK_HAS(out, "ERROR: AddressSanitizer: lds-bad-free on address 0xdead00 on amdgpu device 0");
  CHECK_HAS(out, "attempting to free LDS block 0xdead00, which ldsan did not allocate, in kernel k1(int*, int)");
  free(out);
  r.kind = 99;
  out = report(&r, &mini_dispatch);
  CHECK_HAS(out, "unknown report kind 99");
  free(out);
}

static void test_color(void) {
  ldsan_flags_parse("color=always", stderr);
  ldsan_report_record r = mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
  char *out = report(&r, &mini_dispatch);
  CHECK_HAS(out, "\033[1m\033[31m==");
  CHECK_HAS(out, "\033[1m\033[35m'tile'");
  free(out);
  ldsan_flags_parse("color=never", stderr);
  out = report(&r, &mini_dispatch);
  CHECK_LACKS(out, "\033[");
  free(out);
}

/* report_format=json: one line per report, the schema of docs/reports.md, "JSON reports". */
static void test_json(void) {
  ldsan_flags_parse("report_format=json", stderr);
  ldsan_dispatch_info di = mini_dispatch;
  di.symbolize = fake_symbolize;
  ldsan_report_record r = mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
  char *out = report(&r, &di);
  char want[1024];
  snprintf(want, sizeof want,
           "{\"ldsan_report\":1,\"pid\":%ld,\"type\":\"lds-buffer-overflow\",\"kernel\":\"k1(int*, int)\","
           "\"variable\":\"tile\",\"variable_size\":256,\"offset\":256,\"lds_offset\":288,\"access\":\"write\","
           "\"size\":4,\"workgroup\":[3,1,0],\"threads\":[[64,0,0]],\"addresses\":[\"0x20120\"],"
           "\"more_work_items\":0,\"other_workgroups\":0,\"pc\":\"0x7f0000001234\",\"function\":\"k1(int*, int)\","
           "\"location\":\"mini.hip:20:13\",\"device\":\"gfx90a:xnack+\",\"device_index\":0,\"recoverable\":false,"
           "\"severity\":\"error\",\"hazard\":null,\"same_wave\":false,\"other\":null,\"region\":null}\n"
           "==%ld==ABORTING\n", (long)getpid(), (long)getpid());
  CHECK_STREQ(out, want);  /* the whole output: no rule, no shadow dump, ABORTING stays text */
  json_object o;
  char *nl = strchr(out, '\n');
  if (nl) nl[1] = 0;
  CHECK_JSON_REPORT(out, &o);
  free(out);

  /* Inlined frames: function and location are frame 0's (the innermost);
   * with symbolize=0 both are null, the pc stays. */
  static const fake_answer inlined = {2, {{"helper(int)", "dir/mini.hip", 31, 7, FAKE_MODULE, 0x1234},
                                          {"k1(int*, int)", "mini.hip", 40, 5, FAKE_MODULE, 0x1234}}};
  di.symbolize_ctx = (void *)&inlined;
  for (int bare = 0; bare < 2; bare++) {
    ldsan_flags_parse(bare ? "symbolize=0" : "symbolize=1", stderr);
    out = report(&r, &di);
    strchr(out, '\n')[1] = 0;
    CHECK_JSON_REPORT(out, &o);
    CHECK_STREQ(json_raw(&o, "function"), bare ? "null" : "\"helper(int)\"");
    CHECK_STREQ(json_raw(&o, "location"), bare ? "null" : "\"dir/mini.hip:31:7\"");
    CHECK_STREQ(json_raw(&o, "pc"), "\"0x7f0000001234\"");
    free(out);
  }
  ldsan_flags_parse("symbolize=1", stderr);
  /* A frame 0 in the HIP headers: function and location are the program's frame. */
  static const fake_answer header = {2, {{"__hip_hc_memset(void*, unsigned char, unsigned long)",
                                          "/opt/rocm-6.4.0/include/hip/amd_detail/amd_device_functions.h", 1030, 19,
                                          FAKE_MODULE, 0x1234},
                                         {"k1(int*, int)", "mini.hip", 40, 5, FAKE_MODULE, 0x1234}}};
  di.symbolize_ctx = (void *)&header;
  out = report(&r, &di);
  strchr(out, '\n')[1] = 0;
  CHECK_JSON_REPORT(out, &o);
  CHECK_STREQ(json_raw(&o, "function"), "\"k1(int*, int)\"");
  CHECK_STREQ(json_raw(&o, "location"), "\"mini.hip:40:5\"");
  free(out);
  di.symbolize_ctx = NULL;

  /* Underflow: a negative offset from the variable; the header: no variable. */
  r = mini_record(16, 2, 0, LDSAN_SHADOW_LDS_REDZONE);
  r.flags |= LDSAN_ACCESS_NOABORT;
  out = report(&r, &mini_dispatch);
  CHECK_EQ(count_of(out, "\n"), 1);  /* recoverable: no ABORTING line */
  CHECK_JSON_REPORT(out, &o);
  CHECK_STREQ(json_raw(&o, "type"), "\"lds-buffer-underflow\"");
  CHECK_STREQ(json_raw(&o, "variable"), "\"tile\"");
  CHECK_STREQ(json_raw(&o, "offset"), "-16");
  CHECK_STREQ(json_raw(&o, "lds_offset"), "16");
  CHECK_STREQ(json_raw(&o, "access"), "\"read\"");
  CHECK_STREQ(json_raw(&o, "size"), "2");
  CHECK_STREQ(json_raw(&o, "recoverable"), "true");
  CHECK_STREQ(json_raw(&o, "function"), "null");
  CHECK_STREQ(json_raw(&o, "location"), "null");
  free(out);
  r = mini_record(-8, 4, 0, LDSAN_SHADOW_LDS_BLOCK_HEADER);
  r.pc = 0;
  out = report(&r, &mini_dispatch);
  strchr(out, '\n')[1] = 0;
  CHECK_JSON_REPORT(out, &o);
  CHECK_STREQ(json_raw(&o, "variable"), "null");
  CHECK_STREQ(json_raw(&o, "variable_size"), "null");
  CHECK_STREQ(json_raw(&o, "offset"), "null");
  CHECK_STREQ(json_raw(&o, "lds_offset"), "-8");
  CHECK_STREQ(json_raw(&o, "pc"), "null");
  free(out);
  /* Past the end of a variable with no source name: the name from the IR. */
  r = mini_record(400, 8, 1, LDSAN_SHADOW_LDS_REDZONE);
  out = report(&r, &mini_dispatch);
  strchr(out, '\n')[1] = 0;
  CHECK_JSON_REPORT(out, &o);
  CHECK_STREQ(json_raw(&o, "variable"), "\"other\"");
  CHECK_STREQ(json_raw(&o, "variable_size"), "36");
  CHECK_STREQ(json_raw(&o, "offset"), "48");
  free(out);

  /* Strings are escaped; bytes that are not UTF-8 become U+FFFD. No descriptor,
   * no block: the kernel comes from the dispatch, nothing is located. */
  r = mini_record(388, 4, 0, 4);
  r.block = 0;
  r.kernel_desc = 0;
  r.address = 0x1000;
  di = mini_dispatch;
  di.kernel_name = "k\"q\\b\n\t\x01\x7f\xff\xc3\xa9";
  di.device_name = "gfx\"90a\"";
  di.device = 3;
  out = report(&r, &di);
  strchr(out, '\n')[1] = 0;
  CHECK_JSON_REPORT(out, &o);
  CHECK_STREQ(json_raw(&o, "kernel"), "\"k\\\"q\\\\b\\n\\t\\u0001\x7f\\ufffd\xc3\xa9\"");
  CHECK_STREQ(json_raw(&o, "device"), "\"gfx\\\"90a\\\"\"");
  CHECK_STREQ(json_raw(&o, "device_index"), "3");
  CHECK_STREQ(json_raw(&o, "variable"), "null");
  CHECK_STREQ(json_raw(&o, "lds_offset"), "null");
  CHECK_STREQ(json_raw(&o, "addresses"), "[\"0x1000\"]");
  free(out);
  /* No kernel name anywhere: null. */
  di.kernel_name = NULL;
  di.device_name = NULL;
  out = report(&r, &di);
  strchr(out, '\n')[1] = 0;
  CHECK_JSON_REPORT(out, &o);
  CHECK_STREQ(json_raw(&o, "kernel"), "null");
  CHECK_STREQ(json_raw(&o, "device"), "null");
  free(out);

  /* An allocator report: no access, the request size. */
  r = mini_record(0, 0, 0, 0);
  r.kind = LDSAN_REPORT_POOL_EXHAUSTED;
  r.size = 576;
  r.address = 0;
  r.block = 0;
  out = report(&r, &mini_dispatch);
  strchr(out, '\n')[1] = 0;
  CHECK_JSON_REPORT(out, &o);
  CHECK_STREQ(json_raw(&o, "type"), "\"lds-pool-exhausted\"");
  CHECK_STREQ(json_raw(&o, "access"), "null");
  CHECK_STREQ(json_raw(&o, "size"), "576");
  CHECK_STREQ(json_raw(&o, "kernel"), "\"k1(int*, int)\"");
  free(out);

  /* The checker itself rejects what is not JSON. */
  CHECK_EQ(json_parse_line("{\"a\":\"x\ty\"}\n", &o), -1);  /* raw tab in a string */
  CHECK_EQ(json_parse_line("{\"a\":01}\n", &o), -1);
  CHECK_EQ(json_parse_line("{\"a\":\"\xff\"}\n", &o), -1);
  CHECK_EQ(json_parse_line("{\"a\":1,}\n", &o), -1);
  CHECK_EQ(json_parse_line("{\"a\":[1,2],\"b\":{\"c\":null}}\n", &o), 0);
  CHECK_EQ(o.n, 2);
  ldsan_flags_parse("report_format=text", stderr);
}

/* LDS hazard records: both accesses, the variable, the hint, SUMMARY with the
 * previous access; a warning says WARNING and does not abort; JSON's other. */
static void test_hazards(void) {
  ldsan_dispatch_info di = mini_dispatch;
  di.symbolize = fake_symbolize;
  ldsan_report_record r = mini_race();
  char *out = report(&r, &di);
  CHECK_HAS(out, "==ERROR: AddressSanitizer: lds-data-race in kernel k1(int*, int): read-after-write by work-items "
                 "(64,0,0) and (3,0,0) with no barrier between\n");
  CHECK_HAS(out, "\nREAD of size 4 at 0x20020 by thread (work-item) (64,0,0) lane 0 of workgroup (3,1,0):\n"
                 "    #0 0x7f0000001234 in k1(int*, int) mini.hip:20:13\n");
  CHECK_HAS(out, "\nprevious WRITE of size 4 at 0x20020 by thread (work-item) (3,0,0) lane 3 of workgroup (3,1,0):\n"
                 "    #0 0x7f0000005678  (<unknown module>)\n");
  CHECK_HAS(out, "(found by the CPU emulator's LDS checks, which do not stop the dispatch)");
  CHECK_HAS(out, "is located 0 bytes inside of LDS variable 'tile'");
  CHECK_HAS(out, "HINT: nothing orders the two accesses");
  CHECK_HAS(out, "\nSUMMARY: AddressSanitizer: lds-data-race mini.hip:20:13 in k1(int*, int) (previous access at an "
                 "unknown line)\n==");  /* an error: ABORTING follows under halt_on_error */
  CHECK(!strstr(out, "Shadow bytes around"));
  free(out);
  /* Within one wave, a warning: no ABORTING. */
  r.flags |= LDSAN_REPORT_WARNING | LDSAN_ACCESS_SAME_WAVE;
  r.hazard = LDSAN_HAZARD_WAR;
  r.flags |= LDSAN_ACCESS_WRITE;
  r.other_flags = LDSAN_ACCESS_ATOMIC;
  out = report(&r, &di);
  CHECK_HAS(out, "==WARNING: ldsan: lds-data-race in kernel k1(int*, int): write-after-read within one wave by");
  CHECK_HAS(out, "\nprevious atomic READ of size 4 at 0x20020");
  CHECK_HAS(out, "HINT: the two accesses are in one wave");
  CHECK_HAS(out, "SUMMARY: ldsan: lds-data-race");
  CHECK(!strstr(out, "ABORTING"));
  free(out);
  /* Uninitialized read: no second access. */
  r = mini_race();
  r.kind = LDSAN_REPORT_LDS_UNINIT_READ;
  r.hazard = 0;
  out = report(&r, &di);
  CHECK_HAS(out, "==ERROR: AddressSanitizer: lds-uninitialized-read in kernel k1(int*, int): read of LDS no "
                 "work-item of the workgroup wrote\n");
  CHECK(!strstr(out, "previous READ") && !strstr(out, "previous WRITE"));
  free(out);
  /* Barrier divergence after a return: the returned work-item, no frames. */
  r = mini_race();
  r.kind = LDSAN_REPORT_BARRIER_DIVERGENCE;
  r.hazard = 0;
  r.other_pc = 0;
  r.flags = LDSAN_REPORT_DEFERRED | LDSAN_REPORT_WARNING;
  out = report(&r, &di);
  CHECK_HAS(out, "==WARNING: ldsan: barrier-divergence in kernel k1(int*, int): work-item (64,0,0) waits at a "
                 "barrier that work-item (3,0,0) never reaches: it returned\n");
  CHECK_HAS(out, "\nbarrier by thread (work-item) (64,0,0)");
  CHECK_HAS(out, "\nthread (work-item) (3,0,0) lane 3 of workgroup (3,1,0) returned from the kernel without reaching it\n");
  free(out);
  /* From the GPU checks: a work-item skipped a barrier its wave passed (a
   * barrier in a loop whose trip count differs within the wave). */
  r = mini_race();
  r.kind = LDSAN_REPORT_BARRIER_DIVERGENCE;
  r.hazard = LDSAN_HAZARD_BARRIER_SKIPPED;
  r.flags = LDSAN_ACCESS_SAME_WAVE;
  out = report(&r, &di);
  CHECK_HAS(out, "==ERROR: AddressSanitizer: barrier-divergence in kernel k1(int*, int): work-item (64,0,0) reaches "
                 "a barrier after its wave passed another one without it: work-item (3,0,0) of its wave passed "
                 "that one more times\n");
  CHECK_HAS(out, "\nother barrier by thread (work-item) (3,0,0)");
  CHECK_HAS(out, "HINT: every work-item of a workgroup must pass each __syncthreads() the same number of times");
  free(out);
  ldsan_flags_parse("report_format=json", stderr);
  out = report(&r, &di);
  CHECK_HAS(out, "\"hazard\":\"skipped-barrier\",\"same_wave\":true,");
  free(out);
  ldsan_flags_parse("report_format=text", stderr);
  /* From the GPU checks: the other access's size is not kept, and a write may
   * race with a read of another wave the device did not record. */
  r = mini_race();
  r.hazard = LDSAN_HAZARD_WAR;
  r.flags = LDSAN_ACCESS_WRITE | LDSAN_REPORT_OTHER_UNKNOWN;
  r.other_pc = 0;
  r.other_size = 0;
  r.other_flags = 0;
  memset(r.other_workitem_id, 0, sizeof r.other_workitem_id);
  out = report(&r, &di);
  CHECK_HAS(out, "write-after-read by work-items (64,0,0) and a work-item of another wave with no barrier between\n");
  CHECK_HAS(out, "\nprevious READ at 0x20020 by a work-item of another wave (not recorded)\n");
  free(out);
  ldsan_flags_parse("report_format=json", stderr);
  out = report(&r, &di);
  CHECK_HAS(out, "\"other\":{\"thread\":null,\"lane\":null,\"pc\":null,\"function\":null,\"location\":null,"
                 "\"access\":\"read\",\"size\":null,\"atomic\":false},\"region\":null}\n");
  free(out);
  ldsan_flags_parse("report_format=text", stderr);
  /* JSON: severity, hazard, the second access. */
  ldsan_flags_parse("report_format=json", stderr);
  r = mini_race();
  out = report(&r, &di);
  CHECK_HAS(out, "\"type\":\"lds-data-race\",\"kernel\":\"k1(int*, int)\",\"variable\":\"tile\"");
  CHECK_HAS(out, "\"access\":\"read\",\"size\":4,");
  CHECK_HAS(out, "\"severity\":\"error\",\"hazard\":\"read-after-write\",\"same_wave\":false,\"other\":{"
                 "\"thread\":[3,0,0],\"lane\":3,\"pc\":\"0x7f0000005678\",\"function\":null,\"location\":null,"
                 "\"access\":\"write\",\"size\":4,\"atomic\":false},\"region\":null}\n");
  json_object o;
  char *nl = strchr(out, '\n');
  if (nl) nl[1] = 0;
  CHECK_JSON_REPORT(out, &o);
  free(out);
  ldsan_flags_parse("report_format=text", stderr);
}

int main(void) {
  ldsan_host_init();
  ldsan_flags_set_defaults();  /* hermetic: whatever ASAN_OPTIONS the runner has */
  ldsan_flags_parse("color=never", stderr);
  mini_setup(&mem_map, 0, 0);
  test_static_overflow();
  test_partial_granule();
  test_underflow_and_slot();
  test_dynamic();
  test_after_exit_reconstructs_shadow();
  test_global_memory();
  test_heap_region();
  test_symbolizer_and_range();
  test_allocator_kinds();
  test_program_frame();
  test_summary_forms();
  test_json();
  test_hazards();
  test_color();
  fake_free(&mem_map);
  return test_done("report_test");
}
