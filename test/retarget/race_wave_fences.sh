#!/usr/bin/env bash
# Fences order the LDS accesses of their wave (instrument/WaveFences.h): on
# race_wave_fences.hip, at -O0 and -O2, with the emulator's run-time checks
# (detect_races=1; report_wave_sync=1) and with the checks compiled in as for
# a GPU (-fsanitize-lds=races), a within-wave exchange across tile.sync() or
# __threadfence_block() reports nothing and its twin without the fence gets
# the within-wave warning; lanes of two waves race across a fence all the
# same (an error). Every run that is not stopped by an error computes the GPU's result.
# Usage: test/retarget/race_wave_fences.sh (from the repo root; BUILD= selects the build dir)
. "$(dirname "$0")/../lib/shell_checks.sh"
prog=test/retarget/race_wave_fences.hip
# expect <label> <binary> <LDSAN_OPTIONS> <case> <exit> <headline or none> [absent]
expect() {
  LDSAN_OPTIONS=color=never:$3 "$2" "$4" >"$tmp/out" 2>"$tmp/err"
  local rc=$? why=""
  [[ $rc -eq $5 ]] || why="exit $rc, expected $5"
  if [[ $6 == none ]]; then grep -q "lds-data-race\|wave-sync-dependence" "$tmp/err" && why="$why; unexpected report"
  else grep -qF -- "$6" "$tmp/err" || why="$why; no '$6'"; fi
  [[ $5 -ne 0 ]] || grep -q "race_wave_fences $4: PASSED" "$tmp/out" || why="$why; wrong result"
  if [[ -z $why ]]; then ok "$1 $4 ($3): ${6/none/no report}"
  else bad "$1 $4 ($3):$why"; sed 's/^/    | /' "$tmp/out" "$tmp/err" | head -20; fi
}
warn="WARNING: ldsan: lds-data-race in kernel"
err="ERROR: AddressSanitizer: lds-data-race in kernel void waves"
for opt in -O0 -O2; do
  for mode in runtime device; do
    flags=(); opts=detect_races=1
    [[ $mode == device ]] && flags=(-fsanitize-lds=races) && opts=detect_races=0
    if ! "$BUILD/bin/ldsan-cc" --emulate $opt "${flags[@]}" -Itest/emulator "$prog" -o "$tmp/prog" 2>"$tmp/cc.err"; then
      cat "$tmp/cc.err"; bad "$opt $mode: ldsan-cc --emulate $prog"; continue
    fi
    l="$opt $mode"
    expect "$l" "$tmp/prog" $opts tile 0 none
    expect "$l" "$tmp/prog" $opts tile-nosync 0 "$warn void tile<false>(int const*, int*): read-after-write within one wave"
    expect "$l" "$tmp/prog" $opts block 0 none
    expect "$l" "$tmp/prog" $opts block-nosync 0 "$warn void block<false>(int const*, int*): read-after-write within one wave"
    expect "$l" "$tmp/prog" $opts waves 1 "$err<true>(int const*, int*): read-after-write by work-items"
    expect "$l" "$tmp/prog" $opts waves-nosync 1 "$err<false>(int const*, int*): read-after-write by work-items"
    if [[ $mode == runtime ]]; then  # the portability warning treats the fences alike
      expect "$l" "$tmp/prog" report_wave_sync=1 tile 0 none
      expect "$l" "$tmp/prog" report_wave_sync=1 block-nosync 0 "WARNING: ldsan: wave-sync-dependence in kernel void block<false>"
    fi
  done
done
exit $fail
