#!/usr/bin/env bash
# ldsan on a GPU, without a GPU: runs one scenario of tool_scenarios (a
# CLR-like HSA program) over the HSA test double with ldsan's tools library
# loaded as ROCr loads it, on real code objects built by ldsan-cc for gfx90a
# and gfx942, and checks the output line by line.
# Usage: gpu_tool.sh <scenario>
set -u
cd "$(dirname "$0")/../.."
B="${BUILD:-build}"
T="$B/test/gpu"
scenario="$1"
tool="$B/lib/asan/libldsan-host.so"   # the ASan+UBSan build: the host pieces run sanitized
co90=$T/static_lds.gfx90a.co
co42=$T/static_lds.gfx942.co
dyn90=$T/dynamic_lds.gfx90a.co
fail=0
out=""
rc=0
# A temporary directory of its own: no ldsan-<pid>-*.co code object image may be
# left in it when the program has ended, however it ended (checked at the end).
TMPDIR=$(mktemp -d); export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT
# run [env...] -- args: runs the scenario program, keeps its output and status.
run() {
  local envs=()
  while [[ $# -gt 0 && "$1" != "--" ]]; do envs+=("$1"); shift; done
  shift
  out="$(env LDSAN_OPTIONS="${LDSAN_OPTIONS:-color=never}" HSA_TOOLS_LIB="$tool" "${envs[@]}" \
         "$T/tool_scenarios" "$scenario" "$@" 2>&1)"
  rc=$?
  echo "$out"
  echo "---- exit status $rc"
}
has() { grep -qF -- "$1" <<<"$out" || { echo "FAIL: output lacks: $1"; fail=1; }; }
lacks() { ! grep -qF -- "$1" <<<"$out" || { echo "FAIL: output has: $1"; fail=1; }; }
count() { local n; n=$(grep -cF -- "$1" <<<"$out"); [[ $n -eq $2 ]] || { echo "FAIL: '$1' appears $n times, expected $2"; fail=1; }; }
status() { [[ $rc -eq $1 ]] || { echo "FAIL: exit status $rc, expected $1"; fail=1; }; }
# before A B: the first line with A comes before the first line with B.
before() {
  local a b; a=$(grep -nF -- "$1" <<<"$out" | head -1 | cut -d: -f1); b=$(grep -nF -- "$2" <<<"$out" | head -1 | cut -d: -f1)
  [[ -n "$a" && -n "$b" && $a -lt $b ]] || { echo "FAIL: '$1' (line ${a:-none}) is not before '$2' (line ${b:-none})"; fail=1; }
}
headline="ERROR: AddressSanitizer: lds-buffer-overflow"

case "$scenario" in
completed)  # halt_on_error=0: the dispatch completes; its reports come before the program sees it complete
  LDSAN_OPTIONS=color=never:halt_on_error=0 run -- "$co90"
  count "$headline" 1
  has "on amdgpu device 0 (gfx90a"
  has "in kernel static_lds(int*, int)"
  has "LDS variable 'tile' of size 256"
  has "workgroup (1,0,0)"
  before "$headline" "test: dispatch 1 completed"
  has "test: exiting normally"
  lacks "ABORTING"
  # The device pc symbolized in the loaded code object (ldsan-cc adds line tables).
  grep -qE '^    #0 0x[0-9a-f]+ in static_lds\(int\*, int\) test/compile/static_lds.hip:[0-9]+:[0-9]+$' <<<"$out" \
    || { echo "FAIL: no symbolized frame #0 in static_lds(int*, int) at a line of test/compile/static_lds.hip"; fail=1; }
  grep -qE '^SUMMARY: AddressSanitizer: lds-buffer-overflow test/compile/static_lds.hip:[0-9]+:[0-9]+ in static_lds' <<<"$out" \
    || { echo "FAIL: SUMMARY without the source line"; fail=1; }
  # Where the host launched it: the doorbell store of the CLR-like program, the
  # runtime's (the double's) and ldsan's own frames dropped.
  has "kernel static_lds(int*, int) launched by host code here:"
  grep -A1 'launched by host code here:' <<<"$out" | grep -qE '^    #0 0x[0-9a-f]+ in dispatch_and_wait test/gpu/tool_scenarios.c:[0-9]+' \
    || { echo "FAIL: the launch stack does not start at dispatch_and_wait"; fail=1; }
  status 0 ;;
profiled)   # a profiled dispatch (the kernel packet carries the program's signal): ldsan's signal took its
            # place, and the timestamps the command processor wrote there reach the program's signal
  CLR_LIKE_PROFILED=1 LDSAN_OPTIONS=color=never:halt_on_error=0 run -- "$co90"
  count "$headline" 1
  before "$headline" "test: dispatch 1 completed"
  has "test: profiled dispatch time start < end"
  status 0 ;;
stream0)    # hipStreamSynchronize(0) from ROCm 6.2: the host waits for the marker's async handler
  CLR_LIKE_SYNC=stream0 LDSAN_OPTIONS=color=never:halt_on_error=0 run -- "$co90"
  count "$headline" 1
  before "$headline" "test: dispatch 1 completed"
  status 0 ;;
reinit)     # hsa_shut_down, then hsa_init again: ROCr loads ldsan again (OnLoad after OnUnload)
  LDSAN_OPTIONS=color=never:halt_on_error=0 run -- "$co90"
  count "$headline" 2
  has "workgroup (2,0,0)"
  before "workgroup (2,0,0)" "test: dispatch after hsa_init again completed"
  status 0 ;;
cooperative)  # hipLaunchCooperativeKernel's queue: ROCr shares it and never calls the program's (or
              # ldsan's) callback; the device traps after its report, ROCr's default handler aborts, and
              # ldsan's report still comes out (drained before the abort), with ldsan's exit status
  run -- "$co90"
  count "$headline" 1
  has "inactivated due to async error"
  lacks "test: dispatch 1 completed"
  status 1 ;;
memory-fault)  # halt_on_error=0: reports, then the kernel faults on a bad address; the fault reaches no queue
               # callback, ROCr calls the system event handlers then aborts: ldsan's report comes first
  LDSAN_OPTIONS=color=never:halt_on_error=0 run -- "$co90"
  count "$headline" 1
  has "Memory access fault by GPU"
  before "$headline" "Memory access fault by GPU"
  lacks "test: dispatch 1 completed"
  [[ $rc -ne 0 ]] || { echo "FAIL: exit status 0 after a memory fault"; fail=1; } ;;
no-symbolize)  # symbolize=0: the frame is the bare pc in its code object, named by the loader's URI
  LDSAN_OPTIONS=color=never:halt_on_error=0:symbolize=0 run -- "$co90"
  count "$headline" 1
  ! grep -qE '^    #0 0x[0-9a-f]+ in ' <<<"$out" || { echo "FAIL: symbolize=0 still names a function"; fail=1; }
  grep -qE '^    #0 0x[0-9a-f]+ +\(memory://' <<<"$out" || { echo "FAIL: frame #0 is not a bare pc with its module"; fail=1; }
  status 0 ;;
trap)       # default options: the device traps after its report; ldsan's report, then exit 1, not CLR's abort
  run -- "$co90"
  count "$headline" 1
  has "ABORTING"
  lacks "CLR-like: Callback"
  lacks "test: dispatch 1 completed"
  status 1 ;;
exitcode)   # exitcode= is honoured on the GPU path too
  LDSAN_OPTIONS=color=never:exitcode=42 run -- "$co90"
  count "$headline" 1
  status 42 ;;
foreign-trap)  # a trap that is not ldsan's: ldsan stays silent, the runtime's handler runs
  run -- "$co90"
  lacks "AddressSanitizer"
  has "CLR-like: Callback: Queue"
  [[ $rc -ne 0 ]] || { echo "FAIL: exit status 0 after a queue error"; fail=1; } ;;
clean)      # dispatches without reports on two agents: nothing printed, normal exit
  run HSA_DOUBLE_AGENTS=gfx90a:xnack+,gfx942:xnack+ -- "$co90" "$co42"
  lacks "AddressSanitizer"
  lacks "ldsan:"
  has "test: exiting normally"
  status 0 ;;
two-code-objects)  # two code objects on one agent: each report names its own kernel and variable
  LDSAN_OPTIONS=color=never:halt_on_error=0 run -- "$co90" "$dyn90"
  count "$headline" 2
  has "in kernel static_lds(int*, int)"
  has "in kernel dynamic_lds(float*)"
  has "LDS variable 'count' of size 4"
  before "in kernel static_lds(int*, int)" "test: dispatch 1 completed"
  before "in kernel dynamic_lds(float*)" "test: dispatch 2 completed"
  status 0 ;;
two-agents)  # gfx90a and gfx942 agents, each with its own code object
  LDSAN_OPTIONS=color=never:halt_on_error=0 run HSA_DOUBLE_AGENTS=gfx90a:xnack+,gfx942:xnack+ -- "$co90" "$co42"
  count "$headline" 2
  has "on amdgpu device 0 (gfx90a"
  has "on amdgpu device 1 (gfx942"
  # Both code objects' pcs symbolize to the source (gfx90a and gfx942 line tables).
  count "in static_lds(int*, int) test/compile/static_lds.hip" 2  # the simulated pc may have line 0
  # Each agent has its own LDS backing store in its VRAM, 2 MiB per compute unit
  # (the double's MI210: 104 CUs, MI300X: 304), zeroed (sim_device.c checks).
  has "test: LDS backing store of 218103808 bytes at"
  has "test: LDS backing store of 637534208 bytes at"
  count "zeroed, in the agent's VRAM" 2
  status 0 ;;
abi-mismatch)  # a code object from another ldsan: one clear line naming it, and it runs unchecked (a clean dispatch)
  run SIM_STATE_ABI=99 -- "$co90"
  has "ldsan: error:"
  has "ldsan ABI version 99"
  count "ldsan: error:" 1
  lacks "$headline"
  has "test: exiting normally"
  status 0 ;;
full-channel)  # 300 reports into a 256-slot channel: the rest are counted, none lost
  LDSAN_OPTIONS=color=never:halt_on_error=0 run -- "$co90"
  count "$headline" 1
  has "44 more report"
  status 0 ;;
threads)    # four host threads, a queue each, ten dispatches each: 40 reports, each once, none lost
  LDSAN_OPTIONS=color=never:halt_on_error=0:dedup=0 run -- "$co90"
  count "$headline" 40
  for t in 0 1 2 3; do for i in 0 1 2 3 4 5 6 7 8 9; do count "of workgroup ($((t * 100 + i)),0,0)" 1; done; done
  lacks "lost"
  lacks "dropped"
  has "test: all dispatches completed"
  status 0 ;;
table-refused)  # an API table this build does not know: one line, and the program runs without ldsan
  run HSA_DOUBLE_TABLE_MAJOR=7 -- "$co90"
  has "ldsan: error: cannot attach to "
  has ": its API table has major version 7; ldsan knows versions 1-3"
  has "CLR-like: Callback"   # the trap is the runtime's business again
  [[ $rc -ne 0 ]] || { echo "FAIL: exit status 0"; fail=1; } ;;
no-host-asan)  # program, runtime and ldsan without host ASan: ldsan maps the shadow the device writes
  out="$(env LDSAN_OPTIONS=color=never:halt_on_error=0 HSA_TOOLS_LIB="$B/lib/libldsan-host.so" \
         "$T/tool_scenarios_plain" completed "$co90" 2>&1)"
  rc=$?
  echo "$out"; echo "---- exit status $rc"
  nm "$T/tool_scenarios_plain" | grep -q __asan_init && { echo "FAIL: tool_scenarios_plain has host ASan"; fail=1; }
  count "$headline" 1
  has "LDS variable 'tile' of size 256"
  before "$headline" "test: dispatch 1 completed"
  has "test: ASan's shadow is mapped"   # by ldsan, when the full-ASan code object registered
  has "test: exiting normally"
  status 0 ;;
lds-only)   # an LDS-only code object (-fsanitize=lds, gfx90a without xnack), program and ldsan without
            # host ASan: the store in VRAM with ldsan's own shadow beside it, ASan's shadow never mapped
  out="$(env LDSAN_OPTIONS=color=never:halt_on_error=0 HSA_TOOLS_LIB="$B/lib/libldsan-host.so" \
         "$T/tool_scenarios_plain" completed "$T/static_lds.gfx90a-lds.co" 2>&1)"
  rc=$?
  echo "$out"; echo "---- exit status $rc"
  count "$headline" 1
  has "LDS variable 'tile' of size 256"
  has "in the agent's VRAM"
  has "Shadow bytes around the buggy address:"
  grep -A8 'Shadow bytes around the buggy address:' <<<"$out" | grep -qE '^=>0x[0-9a-f]+:.*\[e1\]' \
    || { echo "FAIL: the shadow dump does not show the redzone byte [e1] from ldsan's own shadow"; fail=1; }
  before "$headline" "test: dispatch 1 completed"
  has "test: ASan's shadow is not mapped"
  has "test: exiting normally"
  status 0 ;;
linked)     # linked into the program (as ldsan-cc does), no HSA_TOOLS_LIB: ldsan is a tool all the same,
            # and once ROCr has read its environment the variables ldsan set for it are the user's again
            # (a child process built for xnack- still runs); a value the user set stays
  out="$(env -u HSA_TOOLS_LIB -u HSA_TOOLS_ROCPROFILER_V1_TOOLS HSA_XNACK=0 LDSAN_OPTIONS=color=never:halt_on_error=0 \
         "$T/tool_scenarios_linked" completed "$co90" 2>&1)"
  rc=$?
  echo "$out"; echo "---- exit status $rc"
  count "$headline" 1
  before "$headline" "test: dispatch 1 completed"
  has "test: after hsa_init HSA_TOOLS_LIB=(unset)"
  has "test: after hsa_init HSA_XNACK=0"
  has "test: after hsa_init HSA_TOOLS_ROCPROFILER_V1_TOOLS=(unset)"
  status 0 ;;
*) echo "unknown scenario $scenario"; exit 2 ;;
esac
left=$(find "$TMPDIR" -name 'ldsan-*.co' 2>/dev/null)
[[ -z "$left" ]] || { echo "FAIL: code object images left in the temporary directory: $left"; fail=1; }
[[ $fail -eq 0 ]] && echo "ok: $scenario"
exit $fail
