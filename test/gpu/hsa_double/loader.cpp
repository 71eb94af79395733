// hsa_double/loader.cpp — code-object readers and executables: create,
// destroy, freeze, get_info, validate, and the registries the loader files
// share (executables in creation order, readers, symbols). Loading itself is
// in load.cpp, symbol queries in symbols.cpp.
//
// Locking: one recursive mutex (loader_lock) guards all loader state. Callbacks
// of the iterate functions run on a snapshot without it, so they may call back
// into the loader.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstring>
#include <set>
#include <unordered_set>

#include "impl.h"

namespace hsad {
namespace {

std::recursive_mutex g_lock;
std::vector<Executable *> g_executables;
std::set<Reader *> g_readers;
std::unordered_set<const Symbol *> g_symbols;

// URI-encodes a path the way hsa_ven_amd_loader.h specifies: anything outside
// [a-zA-Z0-9/_.~-] becomes %XX.
std::string uri_encode(const std::string &path) {
  std::string out;
  for (unsigned char c : path) {
    if (isalnum(c) || strchr("/_.~-", c)) {
      out += char(c);
    } else {
      char hex[4];
      snprintf(hex, sizeof hex, "%%%02X", c);
      out += hex;
    }
  }
  return out;
}

// Reads [offset, offset+size) of `fd` (size 0: to the end of the file) into a file reader.
hsa_status_t read_file(int fd, uint64_t offset, uint64_t size, hsa_code_object_reader_t *out) {
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || (fcntl(fd, F_GETFL) & O_ACCMODE) == O_WRONLY) return HSA_STATUS_ERROR_INVALID_FILE;
  uint64_t file_size = uint64_t(st.st_size);
  if (file_size == 0 || offset > file_size) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  if (size == 0) size = file_size - offset;
  if (size > file_size - offset) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  auto r = std::make_unique<Reader>();
  r->bytes.resize(size);
  for (uint64_t done = 0; done < size;) {
    ssize_t n = pread(fd, r->bytes.data() + done, size - done, off_t(offset + done));
    if (n <= 0) return HSA_STATUS_ERROR_INVALID_FILE;
    done += uint64_t(n);
  }
  r->data = r->bytes.data();
  r->size = size;
  r->is_file = true;
  r->fd = fd;
  char link[64], path[4096];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, path, sizeof path - 1);
  path[n > 0 ? n : 0] = 0;
  char range[64];
  snprintf(range, sizeof range, "#offset=%llu&size=%llu", (unsigned long long)offset, (unsigned long long)size);
  r->uri = "file://" + uri_encode(path) + range;
  return reader_new(r.release(), out);
}

}  // namespace

std::recursive_mutex &loader_lock() { return g_lock; }

Executable *exec_from(hsa_executable_t e) {
  for (Executable *x : g_executables)
    if (e.handle == reinterpret_cast<uint64_t>(x)) return x;
  return nullptr;
}

LoadedCodeObject *lco_from(hsa_loaded_code_object_t o) {
  for (Executable *x : g_executables)
    for (auto &l : x->objects)
      if (o.handle == reinterpret_cast<uint64_t>(l.get())) return l.get();
  return nullptr;
}

std::vector<Executable *> executables_snapshot() {
  std::lock_guard<std::recursive_mutex> lock(g_lock);
  return g_executables;
}

Reader *reader_from(hsa_code_object_reader_t r) {
  auto *p = reinterpret_cast<Reader *>(r.handle);
  return g_readers.count(p) ? p : nullptr;
}

hsa_status_t reader_new(Reader *r, hsa_code_object_reader_t *out) {
  std::lock_guard<std::recursive_mutex> lock(g_lock);
  g_readers.insert(r);
  out->handle = reinterpret_cast<uint64_t>(r);
  return HSA_STATUS_SUCCESS;
}

Symbol *symbol_from(hsa_executable_symbol_t s) {
  auto *p = reinterpret_cast<const Symbol *>(s.handle);
  return g_symbols.count(p) ? const_cast<Symbol *>(p) : nullptr;
}

void symbols_register(const Executable *e) {
  for (auto &s : e->symbols) g_symbols.insert(s.get());
}

namespace {
void destroy(Executable *e) {
  for (auto &s : e->symbols) g_symbols.erase(s.get());
  for (auto &o : e->objects) mem_free(o->load_base, true);
  delete e;
}
}  // namespace

void loader_destroy_all() {
  std::lock_guard<std::recursive_mutex> lock(g_lock);
  for (Executable *e : g_executables) destroy(e);
  g_executables.clear();
  for (Reader *r : g_readers) delete r;
  g_readers.clear();
}

// ---- readers ----------------------------------------------------------------------

// Like ROCr, the reader keeps a pointer: the memory must outlive the reader.
hsa_status_t code_object_reader_create_from_memory(const void *code_object, size_t size,
                                                   hsa_code_object_reader_t *reader) {
  HSAD_CHECK_OPEN();
  if (!code_object || size == 0 || !reader) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  auto *r = new Reader;
  r->data = static_cast<const uint8_t *>(code_object);
  r->size = size;
  char uri[96];
  snprintf(uri, sizeof uri, "memory://%d#offset=0x%llx&size=%llu", int(getpid()),
           (unsigned long long)reinterpret_cast<uint64_t>(code_object), (unsigned long long)size);
  r->uri = uri;
  return reader_new(r, reader);
}

hsa_status_t code_object_reader_create_from_file(hsa_file_t file, hsa_code_object_reader_t *reader) {
  HSAD_CHECK_OPEN();
  if (!reader) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return read_file(file, 0, 0, reader);
}

hsa_status_t ven_amd_loader_code_object_reader_create_from_file_with_offset_size(
    hsa_file_t file, size_t offset, size_t size, hsa_code_object_reader_t *reader) {
  HSAD_CHECK_OPEN();
  if (!reader) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (size == 0) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;  // as ROCr
  return read_file(file, offset, size, reader);
}

hsa_status_t code_object_reader_destroy(hsa_code_object_reader_t reader) {
  HSAD_CHECK_OPEN();
  std::lock_guard<std::recursive_mutex> lock(g_lock);
  Reader *r = reader_from(reader);
  if (!r) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
  g_readers.erase(r);
  delete r;
  return HSA_STATUS_SUCCESS;
}

// ---- executables --------------------------------------------------------------------

hsa_status_t executable_create_alt(hsa_profile_t profile, hsa_default_float_rounding_mode_t rounding,
                                   const char *options, hsa_executable_t *executable) {
  HSAD_CHECK_OPEN();
  (void)options;
  if (!executable || (profile != HSA_PROFILE_BASE && profile != HSA_PROFILE_FULL)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  auto *e = new Executable;
  e->profile = profile;
  e->rounding = rounding;
  std::lock_guard<std::recursive_mutex> lock(g_lock);
  g_executables.push_back(e);
  executable->handle = reinterpret_cast<uint64_t>(e);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t executable_create(hsa_profile_t profile, hsa_executable_state_t state, const char *options,
                               hsa_executable_t *executable) {
  (void)state;  // ignored: a new executable is always unfrozen
  return executable_create_alt(profile, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, options, executable);
}

hsa_status_t executable_destroy(hsa_executable_t executable) {
  HSAD_CHECK_OPEN();
  std::lock_guard<std::recursive_mutex> lock(g_lock);
  Executable *e = exec_from(executable);
  if (!e) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  for (size_t i = 0; i < g_executables.size(); i++)
    if (g_executables[i] == e) g_executables.erase(g_executables.begin() + long(i));
  destroy(e);
  return HSA_STATUS_SUCCESS;
}

// Undefined externals were already refused at load time, so freezing cannot fail.
hsa_status_t executable_freeze(hsa_executable_t executable, const char *options) {
  HSAD_CHECK_OPEN();
  (void)options;
  std::lock_guard<std::recursive_mutex> lock(g_lock);
  Executable *e = exec_from(executable);
  if (!e) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  if (e->state == HSA_EXECUTABLE_STATE_FROZEN) return HSA_STATUS_ERROR_FROZEN_EXECUTABLE;
  e->state = HSA_EXECUTABLE_STATE_FROZEN;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t executable_get_info(hsa_executable_t executable, hsa_executable_info_t attribute, void *value) {
  HSAD_CHECK_OPEN();
  std::lock_guard<std::recursive_mutex> lock(g_lock);
  const Executable *e = exec_from(executable);
  if (!e) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (attribute) {
    case HSA_EXECUTABLE_INFO_PROFILE: *static_cast<hsa_profile_t *>(value) = e->profile; return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_INFO_STATE: *static_cast<hsa_executable_state_t *>(value) = e->state; return HSA_STATUS_SUCCESS;
    case HSA_EXECUTABLE_INFO_DEFAULT_FLOAT_ROUNDING_MODE:
      *static_cast<hsa_default_float_rounding_mode_t *>(value) = e->rounding;
      return HSA_STATUS_SUCCESS;
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

// Nothing is left to check once loading succeeded: result 0 means valid.
hsa_status_t executable_validate(hsa_executable_t executable, uint32_t *result) {
  HSAD_CHECK_OPEN();
  std::lock_guard<std::recursive_mutex> lock(g_lock);
  if (!exec_from(executable)) return HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  if (!result) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *result = 0;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t executable_validate_alt(hsa_executable_t executable, const char *options, uint32_t *result) {
  (void)options;
  return executable_validate(executable, result);
}

}  // namespace hsad
