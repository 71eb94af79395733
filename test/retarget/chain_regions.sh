#!/usr/bin/env bash
# Group functions that go on to the next region themselves when every
# work-item waits there (retarget/retarget_chain.cpp, LDSAN_EMU_GROUP_CHAIN),
# and ldsan's runtime cross-lane operations written inline for a lane alone in
# work-item loops (retarget/retarget_wave_alone.c): chain_regions.hip built
# with -O2 (full ASan and LDS-only) says both for each of its three kernels and
# their LDS checks' copies (the retarget tool's LDSAN_EMU_VERBOSE lines); its
# group functions call themselves for the next region (a musttail call) and
# call __ldsan_emu_wave_op for none of the operations written inline; and it
# gives its host reference's results with no report in work-item loops, as
# fibers, with the race and uninit checks, on one worker thread, and built at
# -O0.
# Usage: test/retarget/chain_regions.sh (from the repo root; BUILD= selects the build dir)
. "$(dirname "$0")/../lib/shell_checks.sh"
prog=test/retarget/chain_regions.hip
kernels=3

for mode in "" -fsanitize=lds; do
  label=${mode:+LDS-only: } exe=prog${mode:+_lds}
  if ! LDSAN_EMU_VERBOSE=1 "$BUILD/bin/ldsan-cc" --emulate -O2 $mode "$prog" -o "$tmp/$exe" 2>"$tmp/cc.err"; then
    cat "$tmp/cc.err"; echo "FAIL: ldsan-cc --emulate -O2 $mode $prog"; exit 1
  fi
  n=$(grep -c "its work-item loops go on to the next region themselves" "$tmp/cc.err")
  [[ $n -eq $kernels ]] && ok "${label}$n kernels' loops go on from region to region" ||
    { bad "${label}$n of $kernels kernels' loops go on from region to region"; cat "$tmp/cc.err"; }
  n=$(grep -c "its LDS checks' loops go on to the next region themselves" "$tmp/cc.err")
  [[ $n -eq $kernels ]] && ok "${label}$n kernels' LDS checks' loops go on from region to region" ||
    { bad "${label}$n of $kernels kernels' LDS checks' loops go on from region to region"; cat "$tmp/cc.err"; }
  n=$(grep -c "cross-lane operations of ldsan's runtime code inline, for a lane alone" "$tmp/cc.err")
  [[ $n -eq $kernels ]] && ok "${label}$n kernels' runtime cross-lane operations inline" ||
    { bad "${label}$n of $kernels kernels' runtime cross-lane operations inline"; cat "$tmp/cc.err"; }
done

rm -rf "$tmp/keep"; mkdir -p "$tmp/keep"
if LDSAN_EMU_KEEP_TEMPS=1 TMPDIR="$tmp/keep" "$BUILD/bin/ldsan-cc" --emulate -O2 "$prog" -o "$tmp/prog2" 2>/dev/null &&
   bc=$(find "$tmp/keep" -name '*chain_regions.bc' | head -1) && [[ -n "$bc" ]] &&
   "$BUILD/bin/ldsan-emu-retarget" "$bc" -o "$tmp/x.o" --emit-ll "$tmp/x.ll" -O2; then
  awk '/^define .*@__ldsan_emu_group(_checked)?\./,/^}/' "$tmp/x.ll" >"$tmp/groups.ll"
  n=$(grep -c 'musttail call i64 @__ldsan_emu_group' "$tmp/groups.ll")
  [[ $n -eq $((2 * kernels)) ]] && ok "$n group functions call themselves for the next region" ||
    bad "$n of $((2 * kernels)) group functions call themselves for the next region"
  # Operations 0-5 (sync, ballot, readfirstlane, readlane, bpermute, permute) are written inline.
  if grep -qE 'call i64 @__ldsan_emu_wave_op\(i32 [0-5],' "$tmp/groups.ll"; then
    bad "a group function still calls __ldsan_emu_wave_op for an operation written inline"
    grep -E 'call i64 @__ldsan_emu_wave_op\(i32 [0-5],' "$tmp/groups.ll" | head -3
  else
    ok "no group function calls __ldsan_emu_wave_op for an operation written inline"
  fi
else
  bad "cannot retarget the kept bitcode of $prog"
fi

runs_clean chain_regions prog prog_lds
for run in "LDSAN_OPTIONS=emu_threads=1" "LDSAN_OPTIONS=detect_races=1"; do
  if env $run "$tmp/prog" >"$tmp/out" 2>"$tmp/err" && grep -q "chain_regions: PASSED" "$tmp/out"; then
    ok "prog: right results ($run)"
  else
    bad "prog: $run: wrong results"; cat "$tmp/out" "$tmp/err"
  fi
done
if "$BUILD/bin/ldsan-cc" --emulate -O0 "$prog" -o "$tmp/prog_O0" 2>"$tmp/cc.err" && "$tmp/prog_O0" >"$tmp/out" 2>&1 &&
   grep -q "chain_regions: PASSED" "$tmp/out"; then
  ok "-O0: right results"
else
  bad "-O0: build or results"; cat "$tmp/cc.err" "$tmp/out"
fi
exit $fail
