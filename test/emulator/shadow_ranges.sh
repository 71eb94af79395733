#!/usr/bin/env bash
# Work-item loops that check ASan's shadow once per loop (retarget_shadow_ranges.cpp):
# shadow_ranges.hip built with -O2 gets such loops in each of its kernels (the retarget
# tool's LDSAN_EMU_VERBOSE lines, in the kernel and in its LDS checks' copy), and gives
# its host reference's results with no report: in work-item loops, as fibers, and with
# detect_races=1:detect_uninit=1. (bug_range_overrun.hip and bug_range_inner_loop.hip
# check that a bad interval still reports the access.)
# Usage: test/emulator/shadow_ranges.sh (from the repo root; BUILD= selects the build dir)
. "$(dirname "$0")/shell_checks.sh"
prog=test/emulator/shadow_ranges.hip

if ! LDSAN_EMU_VERBOSE=1 "$BUILD/bin/ldsan-cc" --emulate -O2 -Itest/emulator "$prog" -o "$tmp/prog" 2>"$tmp/cc.err"; then
  cat "$tmp/cc.err"; echo "FAIL: ldsan-cc --emulate -O2 $prog"; exit 1
fi
for k in _Z12stage_reduceILi256EEvPKfPf _Z12stage_reduceILi64EEvPKfPf _Z16reversed_columnsILi128ELi8EEvPKfPf \
         _Z17guarded_neighbourILi256EEvPKiPi _Z9wide_copyILi256ELi12EEvPK15HIP_vector_typeIfLj4EEPS1_; do
  for copy in "" "in its LDS checks' copy, "; do
    if grep -F "kernel '$k': $copy" "$tmp/cc.err" | grep -qE "': ${copy}[1-9][0-9]* work-item loops check ASan's shadow once per loop"; then
      ok "$k: ${copy}loops check the shadow once"
    else
      bad "$k: ${copy}no loop checks the shadow once"; grep -F "'$k'" "$tmp/cc.err"
    fi
  done
done
for run in "" "LDSAN_EMU_FIBERS=1" "LDSAN_OPTIONS=detect_races=1:detect_uninit=1"; do
  if env $run "$tmp/prog" >"$tmp/out" 2>"$tmp/err" && grep -q "shadow_ranges: PASSED" "$tmp/out" &&
     ! grep -qE 'ERROR|WARNING|SUMMARY' "$tmp/err"; then
    ok "right results, no report ($run)"
  else
    bad "$run: wrong results or a report"; cat "$tmp/out" "$tmp/err"
  fi
done
exit $fail
