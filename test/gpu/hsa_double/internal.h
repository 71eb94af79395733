// hsa_double/internal.h — private declarations shared by the files of the HSA
// runtime test double, grouped under the file that defines them.
//
// Conventions: every object handed to callers is addressed by its own pointer
// (hsa_agent_t.handle == (uint64_t)Agent*, as ROCr does). Objects are found
// again through a registry (agents, pools, executables, symbols, readers) or,
// for the hot signal and queue operations, through a magic field. Functions
// named like the HSA API without the hsa_ prefix (hsad::agent_get_info) are
// the implementations the API table points at; exports_*.cpp holds the public
// C symbols, which call through the table.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "amd_hsa_queue.h"
#include "amd_hsa_signal.h"
#include "hsa.h"
#include "hsa_api_trace.h"
#include "hsa_double.h"
#include "hsa_ext_amd.h"
#include "hsa_ven_amd_loader.h"
#include "rocm_versions.h"

#define HSAD_EXPORT __attribute__((visibility("default")))

namespace hsad {

// ---- runtime.cpp: reference-counted init/shutdown ----------------------------
bool is_open();
hsa_status_t init();
hsa_status_t shut_down();
uint64_t now_ns();                 // CLOCK_MONOTONIC in ns: the system timestamp (1 GHz)
const char *env(const char *name); // getenv; an empty value counts as unset
// ROCr's flags (core/util/flag.h Flag::Refresh), read at the first hsa_init.
struct Flags {
  bool queue_fault_message;  // HSA_ENABLE_QUEUE_FAULT_MESSAGE != "0"
  bool vm_fault_message;     // HSA_ENABLE_VM_FAULT_MESSAGE != "0"
  bool interrupt;            // HSA_ENABLE_INTERRUPT != "0"
};
const Flags &flags();
#define HSAD_CHECK_OPEN()                                                    \
  do {                                                                       \
    if (!::hsad::is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;         \
  } while (0)

// ---- table.cpp / table_amd.cpp: the API table tools receive ----------------------
HsaApiTable &api();          // the root tools get, in the selected release's layout
CoreApiTable &core_table();  // its core table, which the exports call through
void *amd_entry(const char *name);  // the AMD table's entry "hsa_amd_<name>_fn" (at the release's index)
void table_reset();      // original entries and the release's layout (ROCr resets after OnUnload)
void table_apply_env();  // HSA_DOUBLE_TABLE_MAJOR, HSA_DOUBLE_CORE_MINOR
void amd_fill_impl(AmdExtTable &t);  // the AMD entries, in Debian's 5.2 struct
void amd_fill_layout(void **entries, size_t capacity, const AmdExtTable &impl);  // by name, per release

// ---- tools.cpp: HSA_TOOLS_LIB and HSA_AMD_TOOL_PRIORITY tools ------------------
void tools_load();    // at first hsa_init, after agents exist
void tools_unload();  // OnUnload in reverse order, then table_reset()
void tools_close();   // dlclose, last step of shutdown

// ---- agents.cpp: agents, ISAs, known processors --------------------------------
enum class Feature : uint8_t { Any, On, Off };  // Any: the target id does not say
struct Target {
  const char *processor;  // "gfx90a"
  uint32_t mach;          // EF_AMDGPU_MACH_*
  bool has_xnack, has_sramecc;
  uint32_t compute_units, chip_id, lds_bytes;
  const char *product;
};
struct Isa {
  const Target *target = nullptr;
  Feature xnack = Feature::Any, sramecc = Feature::Any;
  std::string target_id;  // "gfx90a:xnack+"
  std::string full_name;  // "amdgcn-amd-amdhsa--gfx90a:xnack+"
};
struct Pool;
struct Arena;
struct Agent {
  hsa_device_type_t type = HSA_DEVICE_TYPE_CPU;
  uint32_t node = 0;
  std::string name;  // HSA_AGENT_INFO_NAME
  Isa isa;           // GPU only
  std::vector<std::unique_ptr<Pool>> pools;
  Arena *vram = nullptr;  // GPU only
};
const Target *target_by_name(const std::string &processor);
const Target *target_by_mach(uint32_t mach);
bool parse_target_id(const std::string &id, Isa *out);  // false: unknown processor/syntax
hsa_status_t agents_create();  // from HSA_DOUBLE_AGENTS
void agents_destroy();
const std::vector<Agent *> &agents();
Agent *agent_from(hsa_agent_t a);  // nullptr unless a live agent
inline hsa_agent_t handle_of(const Agent *a) { return {reinterpret_cast<uint64_t>(a)}; }
const Isa *isa_from(hsa_isa_t isa);  // nullptr unless the ISA of a live agent

// ---- vram.cpp: per-GPU device memory (memfd mapped PROT_NONE + RW view) --------
Arena *arena_create(uint64_t size);
void arena_destroy(Arena *a);
uint64_t arena_alloc(Arena *a, uint64_t size);  // device address, 0 when full
void arena_free(Arena *a, uint64_t addr, uint64_t size);
bool arena_contains(const Arena *a, uint64_t addr);
uint8_t *arena_rw(const Arena *a, uint64_t addr);  // host view of a device address

// ---- memory.cpp: pools, allocations, copies ------------------------------------
struct Pool {
  Agent *owner = nullptr;
  hsa_amd_segment_t segment = HSA_AMD_SEGMENT_GLOBAL;
  uint32_t flags = 0;  // hsa_amd_memory_pool_global_flag_t bits
  uint64_t size = 0;
  bool alloc_allowed = false;
};
struct Allocation {
  uint64_t base = 0, size = 0;
  Pool *pool = nullptr;
  bool internal = false;  // loader memory: not freeable by hsa_amd_memory_pool_free
  std::vector<Agent *> allowed;
};
constexpr uint64_t kGranule = 4096;  // RUNTIME_ALLOC_GRANULE and _ALIGNMENT of every pool
Pool *pool_from(uint64_t handle);    // nullptr unless a pool of a live agent
hsa_amd_memory_pool_access_t pool_access(const Agent *agent, const Pool *pool);  // ROCr's default
hsa_status_t mem_alloc(Pool *pool, uint64_t size, bool internal, uint64_t *base);
hsa_status_t mem_free(uint64_t base, bool internal);
bool mem_find(uint64_t addr, uint64_t n, Allocation *out);  // copy of the allocation holding the range
void *mem_view(uint64_t addr, uint64_t n);                  // host RW pointer or nullptr
bool mem_in_vram(uint64_t addr);                            // inside some GPU's arena
void mem_release_all();

// ---- signal.cpp: signals and waiting --------------------------------------------
struct Queue;
constexpr uint64_t kSignalMagic = 0x68736164'5349474eull;
struct alignas(64) Signal {
  amd_signal_t abi;             // first: hsa_signal_t.handle == &abi, as in ROCr
  uint64_t magic = kSignalMagic;
  Queue *intercept = nullptr;   // doorbell of this intercept queue: stores run its handlers
  bool queue_owned = false;     // a queue's doorbell: hsa_signal_destroy refuses it
  bool interrupt = true;        // ROCr's InterruptSignal (else a DefaultSignal)
  bool ipc = false;             // created with HSA_AMD_SIGNAL_IPC
};
Signal *signal_from(hsa_signal_t s);  // nullptr for 0 or not a live signal
inline hsa_signal_t handle_of(const Signal *s) { return {reinterpret_cast<uint64_t>(&s->abi)}; }
Signal *signal_new(int64_t value);
void signal_delete(Signal *s);  // leaves the live set; freed now or when its running handler returns
void signal_free(Signal *s);    // the memory itself
int64_t signal_load(const Signal *s);
void signal_store(Signal *s, int64_t v);  // runs an intercept doorbell, wakes waiters
int64_t signal_add(Signal *s, int64_t delta);  // atomic; returns the old value; wakes waiters
void signal_release_all();
bool cond_holds(hsa_signal_condition_t cond, int64_t value, int64_t compare);
// All waiting (signal waits, packet processors, the async handler thread) uses
// one mutex and condition variable; anything a waiter may wait for calls
// wake_waiters() after changing it.
std::mutex &wait_mutex();
std::condition_variable &wait_cv();
std::atomic<int> &waiter_count();
void wake_waiters();
uint64_t deadline_after(uint64_t timeout_ns);  // UINT64_MAX: none
// Blocks until pred() (called with wait_mutex held) or the deadline; returns pred().
template <class Pred>
bool wait_until(uint64_t deadline, Pred pred) {
  waiter_count().fetch_add(1);  // seq_cst: pairs with the seq_cst store + count load in wake_waiters
  std::unique_lock<std::mutex> lock(wait_mutex());
  bool ok = pred();
  while (!ok) {
    if (deadline == UINT64_MAX) {
      wait_cv().wait(lock);
    } else {
      uint64_t now = now_ns();
      if (now >= deadline) break;
      wait_cv().wait_for(lock, std::chrono::nanoseconds(deadline - now));
    }
    ok = pred();
  }
  lock.unlock();
  waiter_count().fetch_sub(1);
  return ok;
}

// ---- async.cpp: ROCr's async-events thread(s) ----------------------------------
// Signals: user handlers, queue errors, intercept doorbells, copies.
// Exceptions: VM faults (their own thread from 6.2.1, else the same one).
enum class Lane : uint8_t { Signals, Exceptions };
hsa_status_t async_add(Signal *s, hsa_signal_condition_t cond, int64_t value,
                       hsa_amd_signal_handler handler, void *arg, Lane lane = Lane::Signals);
bool async_forget(Signal *s);         // under wait_mutex(): drop s's handlers; false: one runs now
void async_quiesce(const Signal *s);  // drop s's handlers, wait for one running on another thread
bool on_async_thread();
void async_stop();                    // joins the handler threads, drops handlers
void copies_release();                // copy.cpp: frees async copies still waiting

// ---- queue.cpp / processor.cpp / queue_errors.cpp / cooperative.cpp /
// ---- intercept.cpp / intercept_submit.cpp / profiling.cpp: AQL queues --------------
using ErrorCallback = void (*)(hsa_status_t, hsa_queue_t *, void *);
using Interceptor = std::pair<hsa_amd_queue_intercept_handler, void *>;
struct Packet {
  uint8_t bytes[64];
};
constexpr uint64_t kQueueMagic = 0x68736164'51554555ull;
struct Queue {
  amd_queue_t amd;  // first: hsa_queue_t* == &amd.hsa_queue, as in ROCr
  uint64_t magic = kQueueMagic;
  Agent *agent = nullptr;
  uint32_t size = 0;
  void *ring = nullptr;
  Signal *doorbell = nullptr;
  ErrorCallback callback = nullptr;  // never null on a hardware queue: default_error_handler stands for none
  void *callback_data = nullptr;
  hsa_queue_t *reported = nullptr;  // queue named in error callbacks (its intercept queue if wrapped)
  Signal *exception = nullptr;      // hardware queues: error bits for the async thread (queue_errors.cpp)
  std::thread processor;            // hardware queues only
  std::atomic<bool> stop{false}, inactive{false}, failed{false};
  std::atomic<bool> self_release{false};  // destroyed from its own processor thread
  // Intercept queues (hsa_amd_queue_intercept_create): packets written here go
  // through `interceptors` (index 0: submission to `wrapped`) into `wrapped`.
  Queue *wrapped = nullptr;
  std::recursive_mutex intercept_lock;  // ROCr's lock_; a handler may register another handler
  std::vector<Interceptor> interceptors;
  uint64_t next_packet = 0;
  Signal *async_doorbell = nullptr;  // ROCr's async_doorbell_: retry barriers and deferred rings
  std::vector<Packet> overflow;      // rewritten packets waiting for room in `wrapped`
  uint64_t retry_index = 0;          // index in `wrapped` of the last retry barrier
  std::atomic<bool> active{true};
  std::atomic<bool> in_async{false};           // its async doorbell handler is processing it
  std::atomic<bool> destroy_requested{false};  // destroyed from there: freed when that returns
};
Queue *queue_from(const hsa_queue_t *q);  // nullptr unless a live queue
hsa_status_t queue_validate(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type, Agent **out);
hsa_status_t queue_create_hw(Agent *agent, uint32_t size, hsa_queue_type32_t type, ErrorCallback cb,
                             void *data, Queue **out);
void queue_free(Queue *q);     // stops the processor (if any) and frees; caller unregistered it
void queue_release(Queue *q);  // frees storage once no thread runs for it
void queue_register(Queue *q);
bool queue_unregister(Queue *q);  // false if it was not live
void queues_destroy_all();
uint64_t queue_next_id();
void processor_main(Queue *q);                           // processor.cpp
hsa_double_outcome device_dispatch(Agent *agent, const hsa_kernel_dispatch_packet_t *pkt);
// queue_errors.cpp: KFD's exception codes (EC_*), as bits 1 << (code - 1).
constexpr uint64_t ec_bit(int code) { return 1ull << (code - 1); }
enum : int {
  kEcWaveAbort = 1, kEcWaveTrap = 2, kEcWaveMemoryViolation = 5, kEcDispatchDimInvalid = 16,
  kEcGroupSegmentSizeInvalid = 17, kEcDispatchCodeInvalid = 18, kEcPacketUnsupported = 20,
  kEcWorkGroupSizeInvalid = 21, kEcVendorUnsupported = 23
};
void queue_errors_attach(Queue *q);          // at creation: the exception signal and its handler
void queue_raise(Queue *q, uint64_t bits);   // processor thread: the CP stopped the queue
void default_error_handler(hsa_status_t status, hsa_queue_t *source, void *data);
// vm_fault.cpp: GPU memory faults and the system event handlers.
void vmfault_bind();             // at hsa_init, as Runtime::BindVmFaultHandler
void vmfault_unbind();           // at shutdown, after the async threads stopped
void vmfault_raise(Agent *agent);  // processor thread: a wave faulted
// cooperative.cpp: the shared cooperative (GWS) queue of each GPU agent.
hsa_status_t coop_acquire(Agent *agent, hsa_queue_t **out);
bool coop_release(Queue *q);     // hsa_queue_destroy of a cooperative queue; false if q is not one
void coop_forget_all();          // shutdown: queues_destroy_all frees the queues themselves
// intercept.cpp / intercept_submit.cpp
void intercept_doorbell(Queue *iq, int64_t value);  // producer stored `value` to iq's doorbell
void intercept_free(Queue *iq);                     // from queue_free: its async doorbell first
// Writes packets into `iq->wrapped` as ROCr's InterceptQueue::Submit of the
// release does; returns how many (of count) went in, the rest wait in overflow.
uint64_t intercept_submit(Queue *iq, const Packet *pkts, uint64_t count);
void intercept_submit_handler(const void *pkts, uint64_t count, uint64_t user_index, void *data,
                              hsa_amd_queue_intercept_packet_writer writer);  // interceptors[0]
// profiling.cpp: the profiling bit the packet processor reads.
bool profiling_enabled(const Queue *q);

// ---- elf.cpp: AMDGPU code-object parsing ------------------------------------------
struct ElfLoad { uint64_t vaddr, memsz, offset, filesz; uint32_t flags; };
struct ElfSym {
  std::string name;
  uint8_t type, bind;
  uint16_t shndx;
  uint64_t value, size, align;
  bool writable;
};
struct ElfRel { uint64_t offset; uint32_t type, sym; int64_t addend; };
struct ElfImage {
  uint32_t mach = 0;
  uint8_t abi_version = 0;
  Feature xnack = Feature::Any, sramecc = Feature::Any;
  uint64_t lo = 0, hi = 0;  // PT_LOAD span [lo, hi)
  std::vector<ElfLoad> loads;
  std::vector<ElfSym> dynsyms;  // index = symbol index in .dynsym
  std::vector<ElfRel> relocs;   // dynamic relocations (.rela.dyn)
};
hsa_status_t elf_parse(const uint8_t *data, uint64_t size, ElfImage *out);

// ---- loader.cpp / loader_ext.cpp: readers, executables, symbols ----------------------
struct Executable;
struct LoadedCodeObject;
struct Reader {
  std::vector<uint8_t> bytes;  // file readers own a copy
  const uint8_t *data = nullptr;
  uint64_t size = 0;
  bool is_file = false;
  int fd = -1;
  std::string uri;
};
struct Symbol {
  Executable *exec = nullptr;
  Agent *agent = nullptr;
  std::string name;  // "foo.kd" for a kernel
  hsa_symbol_kind_t kind = HSA_SYMBOL_KIND_VARIABLE;
  hsa_symbol_linkage_t linkage = HSA_SYMBOL_LINKAGE_PROGRAM;
  uint64_t address = 0, size = 0;
  uint32_t align = 1;
  bool is_const = false;
  uint32_t kernarg_size = 0, group_size = 0, private_size = 0, wavefront_size = 64;
  bool dynamic_stack = false;
};
struct LoadedCodeObject {
  Executable *exec = nullptr;
  Agent *agent = nullptr;
  uint64_t load_base = 0, load_size = 0;
  int64_t delta = 0;
  uint64_t elf_base = 0, elf_size = 0;  // the ELF image: the caller's bytes, or elf_copy
  std::vector<uint8_t> elf_copy;        // file readers: kept, as the reader may go first
  std::string uri;
};
struct Executable {
  hsa_profile_t profile = HSA_PROFILE_BASE;
  hsa_default_float_rounding_mode_t rounding = HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR;
  hsa_executable_state_t state = HSA_EXECUTABLE_STATE_UNFROZEN;
  std::vector<std::unique_ptr<LoadedCodeObject>> objects;
  std::vector<std::unique_ptr<Symbol>> symbols;
};
std::recursive_mutex &loader_lock();
Executable *exec_from(hsa_executable_t e);  // under loader_lock
LoadedCodeObject *lco_from(hsa_loaded_code_object_t o);
std::vector<Executable *> executables_snapshot();
Reader *reader_from(hsa_code_object_reader_t r);
Symbol *symbol_from(hsa_executable_symbol_t s);   // under loader_lock
void symbols_register(const Executable *e);       // makes e's symbols valid handles
hsa_status_t reader_new(Reader *r, hsa_code_object_reader_t *out);  // registers
const Symbol *kernel_at(uint64_t kernel_object);  // under loader_lock
void loader_destroy_all();
hsa_status_t loader_extension_table(uint16_t minor, size_t length, void *table);  // loader_ext.cpp

// ---- status.cpp ----------------------------------------------------------------------
hsa_status_t status_string(hsa_status_t status, const char **out);

}  // namespace hsad
