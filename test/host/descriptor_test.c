/* ldsan host: kernel descriptors from device memory are untrusted. Malformed
 * blobs must never crash the host and must still give a full report that says
 * "unknown LDS variable" and why; good blobs locate every offset. */
#include "host_test.h"
#include "report_ctx.h"

static fake_memory mem_map;

static char *report(const ldsan_report_record *r) {
  capture c;
  capture_begin(&c);
  ldsan_device_memory mem = fake_reader(&mem_map);
  ldsan_host_print_record(r, &mem, &mini_dispatch, c.f);
  capture_end(&c);
  return c.buf;
}

/* Corrupts the mini descriptor with `patch` (byte offset, 32-bit value) and
 * checks the report of a tile overflow still prints, naming the problem. */
static void check_corrupt(uint32_t at, uint32_t value, const char *why) {
  unsigned char *blob = fake_ptr(&mem_map, MINI_DESC);
  uint32_t saved;
  memcpy(&saved, blob + at, 4);
  memcpy(blob + at, &value, 4);
  ldsan_report_record r = mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
  char *out = report(&r);
  CHECK_HAS(out, "ERROR: AddressSanitizer: lds-buffer-overflow on address");
  CHECK_HAS(out, "WRITE of size 4 at");
  if (why) {
    CHECK_HAS(out, "unknown LDS variable");
    CHECK_HAS(out, why);
    CHECK_LACKS(out, "LDS layout of");
  }
  CHECK_HAS(out, "SUMMARY: AddressSanitizer: lds-buffer-overflow in k1(int*, int)\n");
  if (why && !strstr(out, why)) fprintf(stderr, "%s", out);
  free(out);
  memcpy(blob + at, &saved, 4);
}

static void test_malformed(void) {
  check_corrupt(0, 0x12345678, "bad kernel descriptor magic 0x12345678 (expected 0x4b44534c)");
  char abi_why[96];
  snprintf(abi_why, sizeof abi_why, "kernel descriptor has ABI version 7, this library %u", LDSAN_ABI_VERSION);
  check_corrupt(4, 7, abi_why);
  check_corrupt(8, 0xfffffff8, "bad kernel descriptor total_size 4294967288");
  check_corrupt(8, 12, "bad kernel descriptor total_size 12");
  check_corrupt(8, 33, "bad kernel descriptor total_size 33");
  check_corrupt(12, 0x7fffffff, "kernel descriptor var_count 2147483647 does not fit");
  /* total_size larger than what is mapped: the blob read fails. */
  check_corrupt(8, 4096, "cannot read the 4096-byte kernel descriptor at 0x9000");
  /* Bad string offsets: names fall back, the report still locates the variable. */
  check_corrupt(16, 0xffffff00, NULL);                       /* kernel name out of range */
  check_corrupt(32 + 40 + 20, 0xfffff000, NULL);             /* tile IR name out of range */
  check_corrupt(32 + 40 + 24, 8, NULL);                      /* tile source name inside the header */
  /* Unterminated string: the last bytes of the blob are not NUL. */
  ldsan_desc d;
  ldsan_device_memory mem = fake_reader(&mem_map);
  ldsan_desc_read(&d, &mem, MINI_DESC);
  CHECK(d.valid);
  uint32_t total = d.header.total_size;
  ldsan_desc_free(&d);
  unsigned char *blob = fake_ptr(&mem_map, MINI_DESC);
  unsigned char saved[8];
  memcpy(saved, blob + total - 8, 8);
  memset(blob + total - 8, 'A', 8);
  ldsan_desc_read(&d, &mem, MINI_DESC);
  CHECK(d.valid);
  CHECK(ldsan_desc_string(&d, total - 4) == NULL);
  CHECK(ldsan_desc_string(&d, total) == NULL);
  CHECK(ldsan_desc_string(&d, 0) == NULL);
  ldsan_desc_free(&d);
  memcpy(blob + total - 8, saved, 8);

  /* No descriptor at all, and one at an unmapped address. */
  ldsan_report_record r = mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
  r.kernel_desc = 0xdeadbeef000ull;
  char *out = report(&r);
  CHECK_HAS(out, "unknown LDS variable (cannot read the kernel descriptor at 0xdeadbeef000)");
  CHECK_HAS(out, "SUMMARY: AddressSanitizer: lds-buffer-overflow in k1(int*, int)\n");
  free(out);
}

static void test_desc_from_block_header(void) {
  /* Record without kernel_desc: the block header names it. */
  ldsan_report_record r = mini_record(288, 4, 1, LDSAN_SHADOW_LDS_REDZONE);
  r.kernel_desc = 0;
  char *out = report(&r);
  CHECK_HAS(out, "0 bytes after LDS variable 'tile'");
  free(out);
  /* ...and with the header wrong too (self mismatch): unknown variable. */
  ldsan_block_header *h = (ldsan_block_header *)fake_ptr(&mem_map, MINI_BLOCK - 64);
  h->self = 0x1234;
  out = report(&r);
  CHECK_HAS(out, "unknown LDS variable (the record names no kernel descriptor)");
  free(out);
  h->self = MINI_BLOCK;
}

static void test_locate(void) {
  ldsan_desc d;
  ldsan_device_memory mem = fake_reader(&mem_map);
  ldsan_desc_read(&d, &mem, MINI_DESC);
  CHECK(d.valid);
  CHECK_EQ(d.header.var_count, 3);
  ldsan_location l = ldsan_desc_locate(&d, 32, 0);
  CHECK_EQ(l.where, LDSAN_WHERE_INSIDE); CHECK_EQ(l.var, 1); CHECK_EQ(l.distance, 0);
  l = ldsan_desc_locate(&d, 287, 0);
  CHECK_EQ(l.where, LDSAN_WHERE_INSIDE); CHECK_EQ(l.distance, 255);
  l = ldsan_desc_locate(&d, 351, 0);
  CHECK_EQ(l.where, LDSAN_WHERE_AFTER); CHECK_EQ(l.var, 1); CHECK_EQ(l.distance, 63);
  l = ldsan_desc_locate(&d, 5000, 0);
  CHECK_EQ(l.where, LDSAN_WHERE_AFTER); CHECK_EQ(l.var, 2); CHECK_EQ(l.distance, 5000 - 388);
  l = ldsan_desc_locate(&d, -1, 0);
  CHECK_EQ(l.where, LDSAN_WHERE_HEADER); CHECK_EQ(l.distance, 1);
  l = ldsan_desc_locate(&d, 7, 0);
  CHECK_EQ(l.where, LDSAN_WHERE_SLOT);
  char name[64];
  CHECK_STREQ(ldsan_var_name(&d, 1, name, sizeof name), "tile");
  CHECK_STREQ(ldsan_var_name(&d, 2, name, sizeof name), "other");
  CHECK_STREQ(ldsan_demangle("_ZZ2k1PiiE4tile", name, sizeof name), "k1(int*, int)::tile");
  CHECK_STREQ(ldsan_demangle("_Z2k1Pii", name, sizeof name), "k1(int*, int)");
  CHECK_STREQ(ldsan_demangle("plain_c_name", name, sizeof name), "plain_c_name");
  CHECK_STREQ(ldsan_demangle("_Zgarbage", name, sizeof name), "_Zgarbage");
  ldsan_desc_free(&d);
}

/* Names that demangle to nothing after the last "::" stay whole, never empty
 * (found by test/fuzz/descriptor: an IR name of colons printed as ''). */
static void test_name_edges(void) {
  fake_memory m = {0};
  desc_builder b;
  desc_init(&b, "k", 64, 0);
  desc_var(&b, 0, 8, 8, 0, "::::", NULL, NULL, 0);
  desc_var(&b, 16, 8, 8, 0, "ns::", "", NULL, 0);
  desc_var(&b, 32, 8, 8, 0, "ns::x", NULL, NULL, 0);
  desc_var(&b, 48, 8, 8, 0, "", NULL, NULL, 0);
  desc_place(&b, &m, 0x4000);
  ldsan_device_memory mem = fake_reader(&m);
  ldsan_desc d;
  ldsan_desc_read(&d, &mem, 0x4000);
  CHECK(d.valid);
  char name[64];
  CHECK_STREQ(ldsan_var_name(&d, 0, name, sizeof name), "::::");
  CHECK_STREQ(ldsan_var_name(&d, 1, name, sizeof name), "ns::");
  CHECK_STREQ(ldsan_var_name(&d, 2, name, sizeof name), "x");
  CHECK_STREQ(ldsan_var_name(&d, 3, name, sizeof name), "<unnamed #3>");
  ldsan_desc_free(&d);
  fake_free(&m);
}

/* Random garbage descriptors (fixed seed): never crash, always a report. */
static void test_fuzz(void) {
  unsigned char *blob = fake_ptr(&mem_map, MINI_DESC);
  ldsan_desc d;
  ldsan_device_memory mem = fake_reader(&mem_map);
  ldsan_desc_read(&d, &mem, MINI_DESC);
  uint32_t total = d.header.total_size;
  ldsan_desc_free(&d);
  unsigned char *good = malloc(total);
  memcpy(good, blob, total);
  srand(12345);
  int reports = 0;
  for (int iter = 0; iter < 2000; iter++) {
    memcpy(blob, good, total);
    int flips = 1 + rand() % 8;
    for (int k = 0; k < flips; k++) blob[(size_t)rand() % total] = (unsigned char)rand();
    if (iter % 3 == 0) memcpy(blob, good, 8);  /* keep magic+abi so deeper checks run */
    ldsan_report_record r = mini_record((rand() % 600) - 64, 4, rand() & 1, LDSAN_SHADOW_LDS_REDZONE);
    capture c;
    capture_begin(&c);
    report_ctx rc;
    ldsan_report_ctx_init(&rc, &r, &mem, &mini_dispatch);
    ldsan_report_ctx_symbolize(&rc);
    ldsan_report_print(c.f, &rc, NULL);
    ldsan_report_ctx_free(&rc);
    const char *out = capture_end(&c);
    reports += strstr(out, "SUMMARY: AddressSanitizer: ") != NULL;
    free(c.buf);
  }
  CHECK_EQ(reports, 2000);
  memcpy(blob, good, total);
  free(good);
}

int main(void) {
  ldsan_host_init();
  ldsan_flags_set_defaults();  /* hermetic: whatever ASAN_OPTIONS the runner has */
  ldsan_flags_parse("color=never:print_legend=0", stderr);
  mini_setup(&mem_map, 0, 0);
  test_malformed();
  test_desc_from_block_header();
  test_locate();
  test_name_edges();
  test_fuzz();
  fake_free(&mem_map);
  return test_done("descriptor_test");
}
