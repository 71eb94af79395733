// hsa_double/rocm_versions.cpp — the ROCm releases the double can behave as,
// chosen with HSA_DOUBLE_ROCM at the first hsa_init, and how they differ where
// a tools library can tell: one row per release, and the AmdExtTable layout of
// each, built from the edits ROCr made to that table.
//
// Sources (ROCm/ROCR-Runtime unless said): release tags rocm-5.2.0 .. rocm-6.2.4
// (paths under src/); for 6.3 the release branch rocm-rel-6.3.0.1 @ 8b1ff280
// (2024-09-25, paths under runtime/hsa-runtime/), not a tag; for "7" ROCr as
// imported into ROCm/rocm-systems develop @ 1b1610fc (2025-08-09), the newest
// source studied: which of its API-table steps shipped in 6.4 or 7.0 is not
// known, so "7" means that develop snapshot. Point releases 5.2.3, 5.3.3,
// 5.4.4, 5.5.1, 5.6.1, 5.7.1 and 6.0.2 do not differ from their .0 in these
// traits; 6.2.1 (= 6.2.2 = 6.2.4) differs from 6.2.0 (the async threads).
#include <cstdio>
#include <cstring>
#include <mutex>

#include "internal.h"

namespace hsad {
namespace {

// Table versions: inc/hsa_api_trace.h HSA_*_API_TABLE_{MAJOR,STEP}_VERSION
// (5.2-6.1; from 6.2 inc/hsa_api_trace_version.h). Sizes: ROCr sets every
// minor_id to sizeof(table) (core/runtime/hsa_api_trace.cpp HsaApiTable::Init,
// UpdateCore, UpdateAmdExts, all releases); the sizes are the expected_*_size
// static_asserts of HsaApiTable::Init (6.1+) or 16 + 8 * entries (5.x, 6.0).
// Root: {version, core_, amd_ext_, finalizer_ext_, image_ext_} = 48 bytes,
// + tools_ in 6.1 (56, major 3), + pc_sampling_ext_ in 6.2 (64, step 1).
// Tools: core/runtime/runtime.cpp Runtime::LoadTools: HSA_TOOLS_LIB only in
// 5.2; + HSA_AMD_TOOL_PRIORITY discovery from 5.3 (os::GetLoadedLibs 5.3-5.4,
// os::GetLoadedToolsLib 5.5+); + rocprofiler_register_library_api_table first
// from 6.1. Async threads: Runtime::SetAsyncSignalHandler, one thread until
// 6.2.0, asyncSignals_/asyncExceptions_ from 6.2.1 (commit 88eaa834).
// Intercept: core/runtime/intercept_queue.cpp InterceptQueue::Submit and
// StoreRelaxed, rewritten in 6.0. Cooperative queue size: core/runtime/
// amd_gpu_agent.cpp GpuAgent::InitGWS, minAqlSize_ (0x40) until 6.3,
// defaultGWSQueueSize 0x4000 clamped to [min, max] in develop. IPC signals
// for async handlers: core/runtime/hsa_ext_amd.cpp hsa_amd_signal_async_handler
// accepts IPCSignal besides InterruptSignal only in develop.
//
//  name     models                                   root        core  AMD ext      ext  img  prio  reg    2thr   v6     gws     ipc
const Release kReleases[] = {
    {"5.2", "rocm-5.2.0 (Debian's headers)",          1, 0, 48,   1,    1, 0, 400,   1,   0,   false, false, false, false, 64,     false},
    {"5.3", "rocm-5.3.0",                             1, 0, 48,   1,    1, 0, 400,   1,   0,   true,  false, false, false, 64,     false},
    {"5.4", "rocm-5.4.0",                             1, 0, 48,   1,    1, 0, 400,   1,   0,   true,  false, false, false, 64,     false},
    {"5.5", "rocm-5.5.0",                             1, 0, 48,   1,    1, 0, 424,   1,   0,   true,  false, false, false, 64,     false},
    {"5.6", "rocm-5.6.0",                             1, 0, 48,   1,    1, 0, 456,   1,   0,   true,  false, false, false, 64,     false},
    {"5.7", "rocm-5.7.0",                             1, 0, 48,   1,    1, 0, 456,   1,   0,   true,  false, false, false, 64,     false},
    {"6.0", "rocm-6.0.0",                             2, 0, 48,   2,    2, 0, 552,   2,   0,   true,  false, false, true,  64,     false},
    {"6.1", "rocm-6.1.0",                             3, 0, 56,   2,    2, 1, 560,   2,   0,   true,  true,  false, true,  64,     false},
    {"6.2", "rocm-6.2.0",                             3, 1, 64,   2,    2, 3, 576,   2,   0,   true,  true,  false, true,  64,     false},
    {"6.2.1", "rocm-6.2.1 (= 6.2.2 = 6.2.4)",         3, 1, 64,   2,    2, 3, 576,   2,   0,   true,  true,  true,  true,  64,     false},
    {"6.3", "branch rocm-rel-6.3.0.1 @ 8b1ff280",     3, 1, 64,   2,    2, 4, 584,   2,   0,   true,  true,  true,  true,  64,     false},
    {"7", "rocm-systems develop @ 1b1610fc (2025-08)", 3, 1, 64,  2,    2, 7, 608,   2,   1,   true,  true,  true,  true,  0x4000, true},
};
constexpr size_t kReleaseCount = sizeof kReleases / sizeof kReleases[0];

// AmdExtTable: 5.2-5.4 is Debian's header (HSAD_AMD_EXT_52). Later releases
// edited it; entries were inserted in the middle twice without a new major
// id (5.5, 5.6), everything since 6.0 is appended (inc/hsa_api_trace.h
// struct AmdExtTable at each source above).
enum class Where { Before, After, Append };
struct Edit {
  const char *since;  // first release with it
  Where where;
  const char *anchor;  // Before/After this entry
  std::vector<const char *> names;
};
const Edit kEdits[] = {
    // 5.5: staging 6bfe57ae "Add Stream Performance Monitor(SPM) APIs" (rocm-5.5.0 :189-192)
    {"5.5", Where::Before, "queue_cu_get_mask", {"spm_acquire", "spm_release", "spm_set_dest_buffer"}},
    // 5.6: 8f27f495 and 30920fc9 (rocm-5.6.0 :158-159): every later entry moved by 2
    {"5.6", Where::After, "memory_async_copy", {"memory_async_copy_on_engine", "memory_copy_engine_status"}},
    {"5.6", Where::Append, nullptr, {"portable_export_dmabuf", "portable_close_dmabuf"}},
    {"6.0", Where::Append, nullptr,
     {"vmem_address_reserve", "vmem_address_free", "vmem_handle_create", "vmem_handle_release", "vmem_map",
      "vmem_unmap", "vmem_set_access", "vmem_get_access", "vmem_export_shareable_handle",
      "vmem_import_shareable_handle", "vmem_retain_alloc_handle", "vmem_get_alloc_properties_from_handle"}},
    {"6.1", Where::Append, nullptr, {"agent_set_async_scratch_limit"}},                      // step 1
    {"6.2", Where::Append, nullptr, {"queue_get_info", "vmem_address_reserve_align"}},         // step 3
    {"6.3", Where::Append, nullptr, {"enable_logging"}},                                       // step 4
    {"7", Where::Append, nullptr,                                                               // steps 5-7
     {"signal_wait_all", "memory_get_preferred_copy_engine", "portable_export_dmabuf_v2"}},
};

#define HSAD_NAME(name) #name,
const char *const kAmd52[] = {HSAD_AMD_EXT_52(HSAD_NAME)};
#undef HSAD_NAME

size_t index_of(const char *name) {
  for (size_t i = 0; i < kReleaseCount; i++)
    if (!strcmp(kReleases[i].name, name)) return i;
  return kReleaseCount;
}

std::vector<const char *> build_layout(size_t release) {
  std::vector<const char *> l(std::begin(kAmd52), std::end(kAmd52));
  for (const Edit &e : kEdits) {
    if (index_of(e.since) > release) continue;
    auto at = l.end();
    if (e.where != Where::Append) {
      for (at = l.begin(); at != l.end() && strcmp(*at, e.anchor); ++at) {}
      if (e.where == Where::After && at != l.end()) ++at;
    }
    l.insert(at, e.names.begin(), e.names.end());
  }
  return l;
}

std::vector<const char *> g_layouts[kReleaseCount];
std::once_flag g_layouts_once;
std::atomic<size_t> g_current{0};  // index into kReleases

// Each layout must have the size ROCr's table has: a wrong edit aborts here.
void build_all() {
  for (size_t r = 0; r < kReleaseCount; r++) {
    g_layouts[r] = build_layout(r);
    if (16 + 8 * g_layouts[r].size() != kReleases[r].amd_bytes) {
      fprintf(stderr, "hsa_double: the AmdExtTable of ROCm %s has %zu entries, not %u bytes\n", kReleases[r].name,
              g_layouts[r].size(), kReleases[r].amd_bytes);
      abort();
    }
  }
}

}  // namespace

const Release &release() { return kReleases[g_current.load(std::memory_order_acquire)]; }

bool release_select() {
  std::call_once(g_layouts_once, build_all);
  const char *v = env("HSA_DOUBLE_ROCM");
  size_t r = index_of(v ? v : "5.2");
  if (r == kReleaseCount) {
    std::string known;
    for (const Release &k : kReleases) known += std::string(" ") + k.name;
    fprintf(stderr,
            "hsa_double: HSA_DOUBLE_ROCM=%s is not a ROCm release the double knows; known:%s "
            "(6.2.1 = 6.2.1-6.2.4; 7 = ROCr develop of 2025-08, the newest studied)\n",
            v, known.c_str());
    return false;
  }
  g_current.store(r, std::memory_order_release);
  return true;
}

const std::vector<const char *> &amd_layout() {
  std::call_once(g_layouts_once, build_all);
  return g_layouts[g_current.load(std::memory_order_acquire)];
}

int amd_index(const char *name) {
  const std::vector<const char *> &l = amd_layout();
  for (size_t i = 0; i < l.size(); i++)
    if (!strcmp(l[i], name)) return int(i) + 1;
  return -1;
}

}  // namespace hsad
