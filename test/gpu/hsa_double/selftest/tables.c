/* hsa_double/selftest/tables.c — the API table of every ROCm release
 * (HSA_DOUBLE_ROCM), read byte by byte through libhsad_probe_tool.so as a tool
 * gets it, against ROCr's facts written out here independently of the double:
 * versions and sizes, the AmdExtTable index of entries that moved, stubs for
 * entries Debian's 5.2 headers lack, exports calling an entry patched in
 * place at the release's index, and the layout restored after OnUnload. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>

#include "probe_tool.h"
#include "selftest.h"

typedef struct {
  const char *rel;
  uint32_t root_major, root_step, root_bytes, core_major, amd_major, amd_step, amd_bytes, ext_major;
  /* AmdExtTable indices (0 = the version struct) */
  int allow_access, memory_fill, system_event, intercept_create, cu_get_mask;
  const char *last;  /* the table's last entry */
} table_facts;

/* ROCr inc/hsa_api_trace.h (+ hsa_api_trace_version.h from 6.2) of each source
 * rocm_versions.cpp names; sizes = the static_asserts of HsaApiTable::Init
 * (6.1+) or 16 + 8 * entries. */
static const table_facts kFacts[] = {
    {"5.2", 1, 0, 48, 1, 1, 0, 400, 1, 18, 23, 35, 36, 48, "queue_cu_get_mask"},
    {"5.3", 1, 0, 48, 1, 1, 0, 400, 1, 18, 23, 35, 36, 48, "queue_cu_get_mask"},
    {"5.4", 1, 0, 48, 1, 1, 0, 400, 1, 18, 23, 35, 36, 48, "queue_cu_get_mask"},
    {"5.5", 1, 0, 48, 1, 1, 0, 424, 1, 18, 23, 35, 36, 51, "queue_cu_get_mask"},
    {"5.6", 1, 0, 48, 1, 1, 0, 456, 1, 20, 25, 37, 38, 53, "portable_close_dmabuf"},
    {"5.7", 1, 0, 48, 1, 1, 0, 456, 1, 20, 25, 37, 38, 53, "portable_close_dmabuf"},
    {"6.0", 2, 0, 48, 2, 2, 0, 552, 2, 20, 25, 37, 38, 53, "vmem_get_alloc_properties_from_handle"},
    {"6.1", 3, 0, 56, 2, 2, 1, 560, 2, 20, 25, 37, 38, 53, "agent_set_async_scratch_limit"},
    {"6.2", 3, 1, 64, 2, 2, 3, 576, 2, 20, 25, 37, 38, 53, "vmem_address_reserve_align"},
    {"6.2.1", 3, 1, 64, 2, 2, 3, 576, 2, 20, 25, 37, 38, 53, "vmem_address_reserve_align"},
    {"6.3", 3, 1, 64, 2, 2, 4, 584, 2, 20, 25, 37, 38, 53, "enable_logging"},
    {"7", 3, 1, 64, 2, 2, 7, 608, 2, 20, 25, 37, 38, 53, "portable_export_dmabuf_v2"},
};

/* Reads the version struct at `p`: major, minor, step. */
static void version(const void *p, uint32_t out[3]) { memcpy(out, p, 12); }

static void *entry(void *table, int index) { return ((void **)((char *)table + 8))[index]; }
static void set_entry(void *table, int index, void *fn) { ((void **)((char *)table + 8))[index] = fn; }

/* Counting wrappers installed in place of two entries; each calls what it replaced. */
static hsa_status_t (*g_fill)(void *, uint32_t, size_t);
static hsa_status_t (*g_sysevent)(hsa_amd_system_event_callback_t, void *);
static int g_fill_calls, g_sysevent_calls;
static hsa_status_t fill_wrapper(void *p, uint32_t v, size_t n) {
  g_fill_calls++;
  return g_fill(p, v, n);
}
static hsa_status_t sysevent_wrapper(hsa_amd_system_event_callback_t cb, void *data) {
  g_sysevent_calls++;
  return g_sysevent(cb, data);
}
static hsa_status_t ignore_event(const hsa_amd_event_t *e, void *data) {
  (void)e, (void)data;
  return HSA_STATUS_ERROR;
}

/* Calls a stub twice, without arguments: the named stubs have type
 * hsa_status_t(void); the typed ones of Debian's entries ignore theirs. */
typedef hsa_status_t (*stub_fn)(void);
__attribute__((no_sanitize("function"))) static void call_twice(void *fn) {
  stub_fn f;
  memcpy(&f, &fn, sizeof f);
  CHECK_HSA(f(), HSA_STATUS_ERROR);
  CHECK_HSA(f(), HSA_STATUS_ERROR);
}
/* The stub prints "hsa_double: <name> is not implemented ..." exactly once. */
static void check_stub_named(void *fn, const char *name) {
  char err[2048], want[256];
  capture_stderr(call_twice, fn, err, sizeof err);
  snprintf(want, sizeof want, "hsa_double: %s is not implemented", name);
  CHECK_HAS(err, want);
  char *first = strstr(err, want);
  CHECK(first && !strstr(first + 1, want));
}

static hsad_probe_state *probe(void **h) {
  *h = dlopen(g_probe_path, RTLD_LAZY | RTLD_NOLOAD);
  return *h ? dlsym(*h, "hsad_probe") : NULL;
}

static void check_release(const table_facts *f) {
  setenv("HSA_DOUBLE_ROCM", f->rel, 1);
  CHECK_OK(hsa_init());
  void *h;
  hsad_probe_state *st = probe(&h);
  CHECK(st && st->root);
  if (!st || !st->root) return;
  char *root = st->root;
  uint32_t v[3];
  version(root, v);
  CHECK_EQ(v[0], f->root_major);
  CHECK_EQ(v[1], f->root_bytes);
  CHECK_EQ(v[2], f->root_step);
  CHECK_EQ(st->runtime_version, f->root_major); /* OnLoad's 2nd argument: the root's major id */
  void *core = *(void **)(root + 16), *amd = *(void **)(root + 24);
  version(core, v);
  CHECK_EQ(v[0], f->core_major);
  CHECK_EQ(v[1], 1016);
  CHECK_EQ(v[2], 0);
  version(amd, v);
  CHECK_EQ(v[0], f->amd_major);
  CHECK_EQ(v[1], f->amd_bytes);
  CHECK_EQ(v[2], f->amd_step);
  version(*(void **)(root + 32), v);
  CHECK_EQ(v[0], f->ext_major); /* finalizer */
  version(*(void **)(root + 40), v);
  CHECK_EQ(v[0], f->ext_major); /* image */
  if (f->root_bytes >= 56) {    /* tools_: version 1, six null scratch-event callbacks */
    void *tools = *(void **)(root + 48);
    CHECK(tools != NULL);
    if (tools) {
      version(tools, v);
      CHECK_EQ(v[0], 1);
      CHECK_EQ(v[1], 64);
      for (int i = 0; i < 6; i++) CHECK(entry(tools, i + 1) == NULL);
    }
  }
  if (f->root_bytes >= 64) { /* pc_sampling_ext_: version 1, seven stubs */
    void *pcs = *(void **)(root + 56);
    CHECK(pcs != NULL);
    if (pcs) {
      version(pcs, v);
      CHECK_EQ(v[0], 1);
      CHECK_EQ(v[1], 72);
      check_stub_named(entry(pcs, 1), "hsa_ven_amd_pcs_iterate_configuration");
    }
  }
  /* Entries by index: stubs say their name; the last one is where the size says. */
  char name[128];
  snprintf(name, sizeof name, "hsa_amd_%s", f->last);
  check_stub_named(entry(amd, (int)(f->amd_bytes - 16) / 8), name);
  if (strcmp(f->last, "queue_cu_get_mask")) check_stub_named(entry(amd, f->cu_get_mask), "hsa_amd_queue_cu_get_mask");
  if (!strcmp(f->rel, "5.5")) check_stub_named(entry(amd, 48), "hsa_amd_spm_acquire");
  if (release_at_least("5.6")) check_stub_named(entry(amd, 17), "hsa_amd_memory_async_copy_on_engine");
  /* The exports call the entry at this release's index, patched in place. */
  memcpy(&g_fill, &(void *){entry(amd, f->memory_fill)}, sizeof g_fill);
  memcpy(&g_sysevent, &(void *){entry(amd, f->system_event)}, sizeof g_sysevent);
  set_entry(amd, f->memory_fill, (void *)fill_wrapper);
  set_entry(amd, f->system_event, (void *)sysevent_wrapper);
  g_fill_calls = g_sysevent_calls = 0;
  agent_list l = agents();
  void *buf = NULL;
  CHECK_OK(hsa_amd_memory_pool_allocate(global_pool(l.cpu), 64, 0, &buf));
  CHECK_OK(hsa_amd_memory_fill(buf, 5, 4));
  CHECK_EQ(g_fill_calls, 1);
  if (buf) CHECK_EQ(((uint32_t *)buf)[3], 5);
  CHECK_OK(hsa_amd_register_system_event_handler(ignore_event, NULL));
  CHECK_EQ(g_sysevent_calls, 1);
  CHECK_OK(hsa_amd_memory_pool_free(buf));
  /* The tools-only intercept entry, at its index, is the one the test entry point calls. */
  hsa_queue_t *q = NULL;
  hsa_status_t (*create)(hsa_agent_t, uint32_t, hsa_queue_type32_t, void (*)(hsa_status_t, hsa_queue_t *, void *),
                         void *, uint32_t, uint32_t, hsa_queue_t **);
  memcpy(&create, &(void *){entry(amd, f->intercept_create)}, sizeof create);
  CHECK_OK(create(l.gpu[0], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q));
  if (q) CHECK_OK(hsa_queue_destroy(q));
  CHECK_OK(hsa_shut_down());
  /* OnUnload, then the table is reset: the patched entries are the runtime's again. */
  CHECK_EQ(st->onunload_calls, st->onload_calls);
  CHECK(entry(amd, f->memory_fill) != (void *)fill_wrapper);
  CHECK(entry(amd, f->system_event) != (void *)sysevent_wrapper);
  dlclose(h);
}

static void check_override(void) {
  /* HSA_DOUBLE_TABLE_MAJOR replaces the root's major id, which OnLoad also gets. */
  setenv("HSA_DOUBLE_ROCM", "6.1", 1);
  setenv("HSA_DOUBLE_TABLE_MAJOR", "9", 1);
  CHECK_OK(hsa_init());
  void *h;
  hsad_probe_state *st = probe(&h);
  if (st) CHECK_EQ(st->runtime_version, 9);
  CHECK_OK(hsa_shut_down());
  if (h) dlclose(h);
  unsetenv("HSA_DOUBLE_TABLE_MAJOR");
}

static void init_bad(void *status) { *(hsa_status_t *)status = hsa_init(); }

void phase_tables(void) {
  setenv("HSA_DOUBLE_AGENTS", "gfx90a:xnack+", 1);
  /* An unknown release: hsa_init fails and says which ones exist. */
  setenv("HSA_DOUBLE_ROCM", "5.8", 1);
  char err[1024];
  hsa_status_t s = HSA_STATUS_SUCCESS;
  capture_stderr(init_bad, &s, err, sizeof err);
  CHECK_HSA(s, HSA_STATUS_ERROR);
  CHECK_HAS(err, "HSA_DOUBLE_ROCM=5.8");
  CHECK_HAS(err, "5.2 5.3 5.4 5.5 5.6 5.7 6.0 6.1 6.2 6.2.1 6.3 7");
  CHECK_HSA(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
  setenv("HSA_TOOLS_LIB", g_probe_path, 1);
  void *keep = dlopen(g_probe_path, RTLD_LAZY); /* one instance for every cycle */
  for (size_t i = 0; i < sizeof kFacts / sizeof kFacts[0]; i++) check_release(&kFacts[i]);
  check_override();
  if (keep) dlclose(keep);
  unsetenv("HSA_TOOLS_LIB");
  unsetenv("HSA_DOUBLE_ROCM");
}
