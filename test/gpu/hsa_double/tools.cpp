// hsa_double/tools.cpp — HSA tools libraries, loaded at the first hsa_init
// the way ROCr's Runtime::LoadTools does:
//  1. names from HSA_TOOLS_LIB (separated by spaces; "double quotes" keep
//     spaces, a backslash escapes the next character) get load order 0..n-1;
//     one that fails to dlopen goes into the failed list, and is reported on
//     stderr only with HSA_TOOLS_REPORT_LOAD_FAILURE=1;
//  2. objects already in the process that export HSA_AMD_TOOL_PRIORITY get
//     order priority + n (found with dl_iterate_phdr; the symbol must be the
//     object's own definition, not one reachable through its dependencies,
//     which is stricter than ROCr's string-table scan);
//  3. a library found twice keeps its lowest order (the extra handle is closed);
//  4. in order, each tool's OnLoad(table, table major id, number of failed
//     tools, their names) runs; a tool without OnLoad, or whose OnLoad returns
//     false, joins the failed list and is dlclose'd.
// At the last hsa_shut_down, OnUnload runs in reverse order and the table is
// reset (tools_unload); the libraries are dlclose'd at the very end (tools_close).
// Runs under runtime.cpp's lock; g_tools is only touched from there.
#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>

#include "impl.h"

namespace hsad {
namespace {

using OnLoadFn = bool (*)(HsaApiTable *, uint64_t, uint64_t, const char *const *);
using OnUnloadFn = void (*)();

struct Candidate {
  void *handle;
  uint64_t order;
  std::string name;
  size_t seq;
};

std::vector<void *> g_tools;  // OnLoad returned true; load order
std::atomic<int> g_tool_count{0};

std::vector<std::string> parse_names(const char *s) {
  std::vector<std::string> names;
  std::string name;
  bool quoted = false, have = false;
  for (; *s; s++) {
    if (*s == '\\' && s[1]) {
      name += *++s;
      have = true;
    } else if (*s == '"') {
      quoted = !quoted;
      have = true;
    } else if (*s == ' ' && !quoted) {
      if (have) names.push_back(name);
      name.clear();
      have = false;
    } else {
      name += *s;
      have = true;
    }
  }
  if (have) names.push_back(name);
  return names;
}

int collect_object(dl_phdr_info *info, size_t, void *data) {
  const char *name = info->dlpi_name;
  if (name && *name && !strstr(name, "vdso")) static_cast<std::vector<std::string> *>(data)->push_back(name);
  return 0;
}

// Loaded objects that define HSA_AMD_TOOL_PRIORITY themselves, with order priority + base.
void find_loaded_tools(uint64_t base, std::vector<Candidate> *out) {
  std::vector<std::string> names;
  dl_iterate_phdr(collect_object, &names);
  for (const std::string &name : names) {
    void *h = dlopen(name.c_str(), RTLD_LAZY | RTLD_NOLOAD);
    if (!h) continue;
    auto *prio = static_cast<const uint32_t *>(dlsym(h, "HSA_AMD_TOOL_PRIORITY"));
    link_map *own = nullptr, *def = nullptr;
    Dl_info di;
    bool mine = prio && dlinfo(h, RTLD_DI_LINKMAP, &own) == 0 &&
                dladdr1(prio, &di, reinterpret_cast<void **>(&def), RTLD_DL_LINKMAP) && def == own;
    if (mine) out->push_back({h, uint64_t(*prio) + base, name, 0});
    else dlclose(h);
  }
}

}  // namespace

void tools_load() {
  std::deque<std::string> failed_names;  // stable storage for the pointers below
  std::vector<const char *> failed;
  auto fail = [&](const std::string &name) {
    failed_names.push_back(name);
    failed.push_back(failed_names.back().c_str());
  };
  const char *report = env("HSA_TOOLS_REPORT_LOAD_FAILURE");
  std::vector<std::string> names = env("HSA_TOOLS_LIB") ? parse_names(env("HSA_TOOLS_LIB")) : std::vector<std::string>();

  std::vector<Candidate> tools;
  find_loaded_tools(names.size(), &tools);
  uint64_t order = 0;
  for (const std::string &name : names) {
    if (void *h = dlopen(name.c_str(), RTLD_LAZY)) {
      tools.push_back({h, order++, name, 0});
    } else {
      fail(name);
      if (report && strcmp(report, "1") == 0) fprintf(stderr, "Tool lib \"%s\" failed to load.\n", name.c_str());
    }
  }

  for (size_t i = 0; i < tools.size(); i++) tools[i].seq = i;  // ties keep discovery order
  std::sort(tools.begin(), tools.end(), [](const Candidate &a, const Candidate &b) {
    return a.order != b.order ? a.order < b.order : a.seq < b.seq;
  });
  for (size_t i = 0; i < tools.size(); i++)  // the same library twice: keep the first (lowest order)
    for (size_t j = i + 1; j < tools.size();)
      if (tools[j].handle == tools[i].handle) {
        dlclose(tools[j].handle);
        tools.erase(tools.begin() + long(j));
      } else {
        j++;
      }

  for (const Candidate &t : tools) {
    auto on_load = reinterpret_cast<OnLoadFn>(dlsym(t.handle, "OnLoad"));
    if (!on_load || !on_load(&api(), api().version.major_id, failed.size(), failed.data())) {
      fail(t.name);
      dlclose(t.handle);
      continue;
    }
    g_tools.push_back(t.handle);
    g_tool_count.store(int(g_tools.size()));
  }
}

void tools_unload() {
  for (size_t i = g_tools.size(); i-- > 0;)
    if (auto on_unload = reinterpret_cast<OnUnloadFn>(dlsym(g_tools[i], "OnUnload"))) on_unload();
  table_reset();  // as ROCr: in case a tool left its entries behind
}

void tools_close() {
  for (void *h : g_tools) dlclose(h);
  g_tools.clear();
  g_tool_count.store(0);
}

}  // namespace hsad

extern "C" HSAD_EXPORT int hsa_double_tool_count(void) { return hsad::g_tool_count.load(); }
