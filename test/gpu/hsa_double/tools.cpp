// hsa_double/tools.cpp — HSA tools libraries, loaded at the first hsa_init
// after the agents and the API table exist, the way ROCr's Runtime::LoadTools
// (core/runtime/runtime.cpp) does in the selected release:
//
// 5.2 (rocm-5.2.0 Runtime::LoadTools): only the names in HSA_TOOLS_LIB, in
//   order. A library is kept (tool_libs_) as soon as dlopen succeeds, before
//   OnLoad; one without OnLoad stays loaded; one whose OnLoad returns false
//   joins the failed list and is dlclose'd, but its handle stays in
//   tool_libs_, so at shutdown ROCr looks up OnUnload in it again: if the
//   library is still mapped (another reference holds it), its OnUnload runs
//   although its OnLoad failed. A name that fails dlopen is only reported.
// 5.3+ (rocm-5.3.0 .. develop Runtime::LoadTools):
//   1. (6.1+) rocprofiler_register_library_api_table("hsa", ...) first, unless
//      HSA_TOOLS_DISABLE_REGISTER=1. If it returns ROCP_REG_SUCCESS (a
//      rocprofiler-sdk tool is present and accepted the table: the double's
//      stand-in is HSA_DOUBLE_ROCPROFILER_SDK_TOOL=1), no HSA_TOOLS_LIB or
//      HSA_AMD_TOOL_PRIORITY tool is loaded unless HSA_TOOLS_ROCPROFILER_V1_TOOLS
//      is set to a true value (see allow_v1);
//   2. names from HSA_TOOLS_LIB get load order 0..n-1; one that fails to
//      dlopen goes into the failed list;
//   3. objects already in the process that export HSA_AMD_TOOL_PRIORITY get
//      order priority + n (os::GetLoadedLibs 5.3-5.4, os::GetLoadedToolsLib
//      5.5+; found here with dl_iterate_phdr; the symbol must be the object's
//      own definition, as GetExportAddress's dladdr check requires);
//   4. a library found twice keeps its lowest order (the extra handle is closed);
//   5. in order, OnLoad(table, table major id, number of failed tools, their
//      names); a tool without OnLoad, or whose OnLoad returns false, joins the
//      failed list and is dlclose'd, and is not unloaded later.
// HSA_TOOLS_LIB names are separated by spaces; "double quotes" keep spaces, a
// backslash escapes the next character (Runtime::parse_tool_names, all
// releases). A dlopen failure is printed unless HSA_TOOLS_REPORT_LOAD_FAILURE=0
// (core/util/flag.h Flag::Refresh, release builds, all releases).
// At the last hsa_shut_down, OnUnload runs in reverse order and the table is
// reset (tools_unload, Runtime::UnloadTools); the libraries are dlclose'd at
// the very end (tools_close, Runtime::CloseTools). A later hsa_init loads them
// again and calls OnLoad again. Runs under runtime.cpp's lock.
#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <regex>

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

struct Tool {
  void *handle;
  std::string name;
  bool closed;  // 5.2: OnLoad returned false and ROCr dlclose'd it, yet kept the handle
};

std::vector<Tool> g_tools;  // ROCr's tool_libs_, in load order
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

// HSA_TOOLS_ROCPROFILER_V1_TOOLS as ROCr reads it (Runtime::LoadTools, 6.1+):
// set (even empty) means true; all digits: std::stoi != 0 (which throws, and
// so terminates, on a number out of int's range, as in ROCr); off, false, no,
// n or f in any case: false; anything else: true.
bool allow_v1() {
  const char *v = getenv("HSA_TOOLS_ROCPROFILER_V1_TOOLS");
  if (!v) return false;
  std::string s = v;
  if (s.empty()) return true;
  if (s.find_first_not_of("0123456789") == std::string::npos) return std::stoi(s) != 0;
  return !std::regex_match(s, std::regex{"^(off|false|no|n|f)$", std::regex_constants::icase});
}

// The rocprofiler-register step (6.1+): true if legacy tools are to be skipped.
bool rocprofiler_sdk_took_table() {
  const char *off = getenv("HSA_TOOLS_DISABLE_REGISTER");
  if (off && !strcmp(off, "1")) return false;  // Flag: disable_tool_register_ = (var == "1")
  const char *sdk = getenv("HSA_DOUBLE_ROCPROFILER_SDK_TOOL");
  bool success = sdk && !strcmp(sdk, "1");  // ROCP_REG_SUCCESS; otherwise ROCP_REG_NO_TOOLS
  return success && !allow_v1();
}

bool report_failures() {
  const char *v = getenv("HSA_TOOLS_REPORT_LOAD_FAILURE");
  return !(v && !strcmp(v, "0"));
}

void load_52(const std::vector<std::string> &names) {
  std::deque<std::string> failed_names;
  std::vector<const char *> failed;
  for (const std::string &name : names) {
    void *h = dlopen(name.c_str(), RTLD_LAZY);
    if (!h) {
      if (report_failures()) fprintf(stderr, "Tool lib \"%s\" failed to load.\n", name.c_str());
      continue;
    }
    g_tools.push_back({h, name, false});
    auto on_load = reinterpret_cast<OnLoadFn>(dlsym(h, "OnLoad"));
    if (on_load && !on_load(&api(), api().version.major_id, failed.size(), failed.data())) {
      failed_names.push_back(name);
      failed.push_back(failed_names.back().c_str());
      dlclose(h);
      g_tools.back().closed = true;
      continue;
    }
    g_tool_count.fetch_add(1);
  }
}

void load_53(const std::vector<std::string> &names) {
  std::deque<std::string> failed_names;  // stable storage for the pointers below
  std::vector<const char *> failed;
  auto fail = [&](const std::string &name) {
    failed_names.push_back(name);
    failed.push_back(failed_names.back().c_str());
  };
  std::vector<Candidate> tools;
  find_loaded_tools(names.size(), &tools);
  uint64_t order = 0;
  for (const std::string &name : names) {
    if (void *h = dlopen(name.c_str(), RTLD_LAZY)) {
      tools.push_back({h, order++, name, 0});
    } else {
      fail(name);
      if (report_failures()) fprintf(stderr, "Tool lib \"%s\" failed to load.\n", name.c_str());
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
    g_tools.push_back({t.handle, t.name, false});
    g_tool_count.fetch_add(1);
  }
}

}  // namespace

void tools_load() {
  const Release &r = release();
  if (r.rocprofiler_register && rocprofiler_sdk_took_table()) return;
  const char *lib = env("HSA_TOOLS_LIB");
  std::vector<std::string> names = lib ? parse_names(lib) : std::vector<std::string>();
  if (r.priority_tools) load_53(names);
  else load_52(names);
}

void tools_unload() {
  for (size_t i = g_tools.size(); i-- > 0;) {
    Tool &t = g_tools[i];
    if (t.closed) {  // 5.2: dlsym on the handle ROCr closed; it answers only if still mapped
      void *again = dlopen(t.name.c_str(), RTLD_LAZY | RTLD_NOLOAD);
      if (again == t.handle)
        if (auto on_unload = reinterpret_cast<OnUnloadFn>(dlsym(again, "OnUnload"))) on_unload();
      if (again) dlclose(again);
      continue;
    }
    if (auto on_unload = reinterpret_cast<OnUnloadFn>(dlsym(t.handle, "OnUnload"))) on_unload();
  }
  table_reset();  // as ROCr: in case a tool left its entries behind
}

// ROCr 5.2 dlcloses a refused tool a second time here, dropping a reference it
// does not own; the double does not.
void tools_close() {
  for (const Tool &t : g_tools)
    if (!t.closed) dlclose(t.handle);
  g_tools.clear();
  g_tool_count.store(0);
}

}  // namespace hsad

extern "C" HSAD_EXPORT int hsa_double_tool_count(void) { return hsad::g_tool_count.load(); }
