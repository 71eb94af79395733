#!/usr/bin/env bash
# What a kernel's work-item loops keep per work-item (retarget_wiloop_uniform.cpp
# recomputes what it can at the start of each region): frame_recompute.hip's
# tree reduction keeps 0 bytes per work-item in its group function and in its
# LDS checks' copy (ldsan-emu-retarget's LDSAN_EMU_VERBOSE lines), and gives
# the right sums, with and without detect_races=1:detect_uninit=1 (no report);
# in full ASan and in the LDS-only mode (-fsanitize=lds), whose shadow offset,
# read from the device state, is the same for every work-item.
# Usage: test/retarget/frame_recompute.sh (from the repo root; BUILD= selects the build dir)
. "$(dirname "$0")/../lib/shell_checks.sh"
prog=test/retarget/frame_recompute.hip

for mode in "" -fsanitize=lds; do
  label=${mode:+LDS-only: }
  if ! LDSAN_EMU_VERBOSE=1 "$BUILD/bin/ldsan-cc" --emulate -O2 $mode -Itest/emulator "$prog" -o "$tmp/prog" 2>"$tmp/cc.err"; then
    cat "$tmp/cc.err"; echo "FAIL: ldsan-cc --emulate -O2 $mode $prog"; exit 1
  fi
  for bs in 128 256; do
    k="_Z8tree_sumILi${bs}EEvPKfPf"
    grep -qF "kernel '$k': work-item loops (" "$tmp/cc.err" &&
      grep -F "kernel '$k': work-item loops (" "$tmp/cc.err" | grep -q ", 0 bytes per work-item)" &&
      ok "${label}tree_sum<$bs>: 0 bytes per work-item in its loops" ||
      { bad "${label}tree_sum<$bs>: its loops keep values per work-item"; grep -F "'$k'" "$tmp/cc.err"; }
    grep -F "kernel '$k': its LDS checks run in work-item loops (0 bytes per work-item," "$tmp/cc.err" >/dev/null &&
      ok "${label}tree_sum<$bs>: 0 bytes per work-item in its checked loops" ||
      { bad "${label}tree_sum<$bs>: its checked loops keep values per work-item"; grep -F "'$k'" "$tmp/cc.err"; }
  done
  for opts in "" "detect_races=1:detect_uninit=1"; do
    if LDSAN_OPTIONS="$opts" "$tmp/prog" >"$tmp/out" 2>"$tmp/err" && grep -q "frame_recompute: PASSED" "$tmp/out" &&
       ! grep -qE 'ERROR|WARNING|SUMMARY' "$tmp/err"; then
      ok "${label}right sums, no report (LDSAN_OPTIONS='$opts')"
    else
      bad "${label}LDSAN_OPTIONS='$opts': wrong sums or a report"; cat "$tmp/out" "$tmp/err"
    fi
  done
done
exit $fail
