#!/usr/bin/env bash
# Tests the `ldsan-cc --emulate` driver (tools/cc_emulate.c): a two-file
# program built with -c then linked with a .cpp, temporary files cleaned up,
# a host object without emulated device code failing at launch with a clear
# message, and the driver's own error messages.
set -u
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-build}"
cc="$BUILD/bin/ldsan-cc"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
expect_error() {  # expect_error <stderr substring> <args...>: the command fails saying so
  local want="$1"; shift
  if "$cc" --emulate "$@" >"$tmp/out" 2>&1; then fail "ldsan-cc --emulate $* succeeded"; return; fi
  grep -qF -- "$want" "$tmp/out" && echo "ok   error for '$*': $want" ||
    { fail "ldsan-cc --emulate $*: missing '$want' in:"; cat "$tmp/out"; }
}

# 1. -c (a .hip and a .cpp) then link; temporaries go to TMPDIR and are removed.
mkdir -p "$tmp/t"
if TMPDIR="$tmp/t" "$cc" --emulate -O2 -c test/tools/multi_kernels.hip -o "$tmp/k.o" &&
   TMPDIR="$tmp/t" "$cc" --emulate -O2 -c test/tools/multi_main.cpp -o "$tmp/main.o" &&
   TMPDIR="$tmp/t" "$cc" --emulate "$tmp/main.o" "$tmp/k.o" -o "$tmp/multi"; then
  out=$("$tmp/multi" 2>&1)
  [[ "$out" == *"multi: PASSED"* ]] && echo "ok   two-file program runs" || fail "two-file program: $out"
else
  fail "building the two-file program"
fi
[[ -z "$(ls -A "$tmp/t")" ]] && echo "ok   temporaries removed" || fail "temporaries left: $(ls "$tmp/t")"

# 1b. The same program in one command: a .hip and a .cpp source.
if "$cc" --emulate -O2 test/tools/multi_main.cpp test/tools/multi_kernels.hip -o "$tmp/multi1"; then
  out=$("$tmp/multi1" 2>&1)
  [[ "$out" == *"multi: PASSED"* ]] && echo "ok   one-command two-file program runs" || fail "one-command program: $out"
else
  fail "building the two-file program in one command"
fi

# 2. A host object without emulated device code: the launch fails naming the kernel.
if "$cc" --offload-host-only -c -x hip test/tools/multi_kernels.hip -o "$tmp/host_only.o" 2>/dev/null &&
   "$cc" --emulate test/tools/multi_main.cpp "$tmp/host_only.o" -o "$tmp/nodev" 2>"$tmp/link.err"; then
  "$tmp/nodev" >"$tmp/out" 2>&1 && fail "program without device code succeeded"
  grep -qF "ldsan-emu: error: hipLaunchKernel: no emulated device code for kernel 'saxpy(float, float const*, float*, int)'" "$tmp/out" &&
    echo "ok   missing device code named at launch" || { fail "missing device code message:"; cat "$tmp/out"; }
else
  fail "building a program from a host-only object"; cat "$tmp/link.err"
fi

# 3. Driver errors say what is wrong.
expect_error "no input files" -o "$tmp/x"
expect_error "does not exist" "$tmp/missing.hip" -o "$tmp/x"
expect_error "'-S' is not supported with --emulate" -S test/tools/multi_kernels.hip
expect_error "-c with -o takes exactly one input" -c test/tools/multi_kernels.hip test/emulator/clean_scan.hip -o "$tmp/x.o"
printf '__global__ void k() { undeclared(); }\n' >"$tmp/broken.hip"
expect_error "compiling the device part of $tmp/broken.hip failed" "$tmp/broken.hip" -o "$tmp/x"

# 4. LDSAN_EMU_TIME=1: each step's CPU time, the driver's and the retarget tool's
# (named by the source), and the total; =passes adds LLVM's pass timing.
if LDSAN_EMU_TIME=1 "$cc" --emulate -O2 -c test/tools/multi_kernels.hip -o "$tmp/timed.o" 2>"$tmp/time.err"; then
  for want in "ldsan-cc --emulate: time: compiling the device part of test/tools/multi_kernels.hip" \
              "ldsan-cc --emulate: time: compiling the host part of test/tools/multi_kernels.hip" \
              "ldsan-cc --emulate: time: retargeting the device code of test/tools/multi_kernels.hip" \
              "ldsan-emu-retarget: time: test/tools/multi_kernels.hip: optimizing (first run)" \
              "ldsan-emu-retarget: time: test/tools/multi_kernels.hip: code generation" \
              "ldsan-emu-retarget: time: test/tools/multi_kernels.hip: total" \
              "ldsan-cc --emulate: time: all steps"; do
    grep -qF -- "$want" "$tmp/time.err" || { fail "LDSAN_EMU_TIME=1: missing '$want' in:"; cat "$tmp/time.err"; }
  done
  grep -qE "^ldsan-cc --emulate: time: all steps +[0-9]+\.[0-9]{3} s$" "$tmp/time.err" &&
    echo "ok   LDSAN_EMU_TIME=1 times each step" || fail "LDSAN_EMU_TIME=1: no total in seconds"
  grep -q "Pass execution timing report" "$tmp/time.err" && fail "LDSAN_EMU_TIME=1 printed -time-passes"
else
  fail "building with LDSAN_EMU_TIME=1"; cat "$tmp/time.err"
fi
"$cc" --emulate -O2 -c test/tools/multi_kernels.hip -o "$tmp/untimed.o" 2>"$tmp/untimed.err"
grep -q "time:" "$tmp/untimed.err" && fail "timing printed without LDSAN_EMU_TIME"
if LDSAN_EMU_TIME=passes "$cc" --emulate -O2 -c test/tools/multi_kernels.hip -o "$tmp/timed.o" 2>"$tmp/time.err"; then
  grep -q "Pass execution timing report" "$tmp/time.err" && grep -q "CodeGen Prepare" "$tmp/time.err" &&
    echo "ok   LDSAN_EMU_TIME=passes adds LLVM's pass timing" || { fail "LDSAN_EMU_TIME=passes:"; cat "$tmp/time.err"; }
else
  fail "building with LDSAN_EMU_TIME=passes"; cat "$tmp/time.err"
fi

[[ $fails -eq 0 ]] && echo "driver: all checks passed" || echo "driver: $fails check(s) failed"
[[ $fails -eq 0 ]]
