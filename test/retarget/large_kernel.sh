#!/usr/bin/env bash
# Large kernels (RT_LARGE_KERNEL, retarget.h) on large_kernel.hip at -O2: the
# 129-tap stencil's regions get no third loop (the one-dimensional twin takes
# the all-waiting loop's place) and its LDS checks run as fibers (LDSAN_EMU_VERBOSE says so), which keeps the build near a GPU
# build's time (make bench: test/bench/build_time.sh); the 3-tap one keeps
# both. Both compute the right values, with and without the LDS checks, and
# the checks still find the race of the large kernel without its barrier.
# Usage: test/retarget/large_kernel.sh (from the repo root; BUILD= selects the build dir)
. "$(dirname "$0")/../lib/shell_checks.sh"
prog=test/retarget/large_kernel.hip
if ! LDSAN_EMU_VERBOSE=1 "$BUILD/bin/ldsan-cc" --emulate -O2 -Itest/emulator "$prog" -o "$tmp/prog" 2>"$tmp/cc.err"; then
  cat "$tmp/cc.err"; echo "FAIL: ldsan-cc --emulate $prog"; exit 1
fi
large=_Z7stencilILi64ELb0EEvPKfPfi small=_Z7stencilILi1ELb0EEvPKfPfi
has() { grep -qF -- "$1" "$tmp/cc.err"; }
has "kernel '$large': work-item loops (" && has "a large kernel: one loop over all work-items only in one-dimensional workgroups" &&
  ok "large kernel: work-item loops, two per region" || bad "large kernel's twins: $(grep "'$large'" "$tmp/cc.err")"
has "kernel '$large': its LDS checks run as fibers, because its checked copy has" &&
  ok "large kernel: LDS checks as fibers" || bad "large kernel's checks: $(grep "'$large'" "$tmp/cc.err")"
grep "kernel '$small': work-item loops (" "$tmp/cc.err" | grep -qv "a large kernel" &&
  has "kernel '$small': its LDS checks run in work-item loops" &&
  ok "small kernel: twins and checked work-item loops" || bad "small kernel: $(grep "'$small'" "$tmp/cc.err")"
out=$("$tmp/prog" 2>&1)
[[ "$out" == *"large_kernel: PASSED"* ]] && ok "results" || bad "results: $out"
out=$(LDSAN_OPTIONS=detect_races=1:detect_uninit=1 "$tmp/prog" 2>&1)
[[ "$out" == *"large_kernel: PASSED"* && "$out" != *"ldsan: "* ]] && ok "checked: results, no report" || bad "checked run: $out"
out=$(LDSAN_OPTIONS=detect_races=1 "$tmp/prog" racy 2>&1)
[[ "$out" == *"lds-data-race in kernel void stencil<64, true>"* && "$out" == *"large_kernel.hip:23:"* ]] &&
  ok "racy large kernel: lds-data-race reported" || bad "racy large kernel: $out"
exit $fail
