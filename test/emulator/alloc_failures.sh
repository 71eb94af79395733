#!/usr/bin/env bash
# Allocation failures in the emulator's start-up (issue 36): alloc_failures.hip
# runs once for every allocation the emulator makes up to and including its
# first launch, with that allocation failing (LDSAN_EMU_FAIL_ALLOC=n, the
# test-only hook of emulator/core/core_alloc.c, which says on stderr which
# allocation it fails). Each run must either exit non-zero with exactly one
# "ldsan-emu: fatal:" line and a line saying how many bytes it could not
# allocate, or (an allocation the emulator can do without) warn about it and
# run to PASSED; never a signal, a sanitizer's crash report or a hang. The sweep
# ends at the first n the program does not reach; it must have failed the
# allocations of HIP registration, the device image, the worker pool and the
# workers. In work-item loops and as fibers, with the LDS checks on, and
# built LDS-only, with one worker (emu_threads=1: the n-th allocation
# is the same one in every run); and once with two (the pool starts; which
# allocation is n-th then depends on how the workers interleave, so only the
# pool's own allocations are asked for).
# Usage: test/emulator/alloc_failures.sh (from the repo root; BUILD= selects the build dir)
. "$(dirname "$0")/../lib/shell_checks.sh"
prog=test/emulator/alloc_failures.hip

build() {  # build <output name> <ldsan-cc flags...>
  local out=$1
  shift
  if ! "$BUILD/bin/ldsan-cc" --emulate -O2 "$@" -Itest/emulator "$prog" -o "$tmp/$out" 2>"$tmp/cc.err"; then
    cat "$tmp/cc.err"
    bad "ldsan-cc --emulate -O2 $* $prog"
    return 1
  fi
}

# sweep <label> <program> <what it must fail, as a regex>... -- [LDSAN_OPTIONS after emu_threads=1]
sweep() {
  local label=$1 exe=$2 n rc what desc seen="" want=()
  shift 2
  while [[ $1 != -- ]]; do want+=("$1"); shift; done
  shift
  for ((n = 1; n <= 500; n++)); do
    env LDSAN_OPTIONS="emu_threads=1${1:+:$1}" LDSAN_EMU_FAIL_ALLOC=$n timeout -k 5 60 "$exe" </dev/null >"$tmp/out" 2>"$tmp/err"
    rc=$?
    what=$(sed -n "s/^ldsan-emu: test: LDSAN_EMU_FAIL_ALLOC=$n fails this allocation (\(.*\))\$/\1/p" "$tmp/err")
    if [[ -z "$what" ]]; then  # the program makes fewer than n allocations: nothing failed
      if [[ $rc -eq 0 ]] && grep -q "^alloc_failures: PASSED" "$tmp/out"; then
        ok "$label: $((n - 1)) allocations, then a run with none failing passes"
      else
        bad "$label: LDSAN_EMU_FAIL_ALLOC=$n failed no allocation but the run exited $rc:"; cat "$tmp/err" "$tmp/out"
      fi
      break
    fi
    seen+="$what"$'\n'
    desc="$label: allocation $n ($what)"
    if ((rc == 124 || rc == 137)); then
      bad "$desc: hangs (timeout 60 s)"
    elif ((rc > 128)); then
      bad "$desc: killed by signal $((rc - 128))"; cat "$tmp/err"
    elif grep -qE "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:" "$tmp/err"; then
      bad "$desc: a sanitizer's report:"; cat "$tmp/err"
    elif ((rc == 0)); then  # optional: said so, and ran
      if grep -q "^alloc_failures: PASSED" "$tmp/out" && grep -qE "cannot allocate.*[ (][0-9]+ bytes" "$tmp/err"; then
        ok "$desc: optional: $(grep -m1 -E "cannot allocate.*[ (][0-9]+ bytes" "$tmp/err")"
      else
        bad "$desc: exit 0 without a warning or without PASSED:"; cat "$tmp/err" "$tmp/out"
      fi
    elif [[ $(grep -c "^ldsan-emu: fatal: " "$tmp/err") -eq 1 ]] &&
         grep -qE "cannot allocate.*[ (][0-9]+ bytes" "$tmp/err" && ! grep -q PASSED "$tmp/out"; then
      ok "$desc: exit $rc: $(grep "^ldsan-emu: fatal: " "$tmp/err")"
    else
      bad "$desc: exit $rc without one 'ldsan-emu: fatal:' line saying how many bytes:"; cat "$tmp/err"
    fi
  done
  [[ -n "$seen" ]] || bad "$label: LDSAN_EMU_FAIL_ALLOC=1 failed no allocation (the hook is gone?)"
  for w in "${want[@]}"; do
    grep -qE "$w" <<<"$seen" || bad "$label: no allocation for /$w/ was failed"
  done
}

start=("HIP module handle" "HIP layer's table of kernels" "HIP layer's table of device variables"
       "table of device images" "shared memory" "launching thread" "kernel dispatch" "LDS window")
if build full; then
  sweep "loops" "$tmp/full" "${start[@]}" "work-item ids" "work-item frames" --
  sweep "two workers" "$tmp/full" "worker pool's table" "pool thread's worker" -- emu_threads=2
  sweep "fibers" "$tmp/full" "${start[@]}" "fiber stacks" "fibers\$" -- emu_fibers=1
  sweep "LDS checks" "$tmp/full" "${start[@]}" "LDS checks' records" -- detect_races=1:detect_uninit=1
fi
if build lds-only -fsanitize=lds; then
  sweep "lds-only" "$tmp/lds-only" "${start[@]}" "work-item frames" --
fi
exit $fail
