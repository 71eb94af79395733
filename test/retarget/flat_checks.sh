#!/usr/bin/env bash
# The LDS-only mode's flat-access checks on the emulator (retarget_flat_filter.cpp):
# flat_checks.hip built with -O2 -fsanitize=lds has, in each kernel's group
# function, a call of __ldsan_flat_lds_access behind an inline test of the LDS
# store's range (ldsan.flat.maybe_lds) for every call; its staging loops still
# check ldsan's own shadow once per loop (the calls neither poison nor stop the
# versioning: retarget_shadow_ranges.cpp); and it gives its host reference's
# results with no report in work-item loops, as fibers and with
# detect_races=1:detect_uninit=1, in the LDS-only build and in full ASan.
# (bug_flat_lds_overrun.hip checks that an LDS access through such a check is
# still reported.)
# Usage: test/retarget/flat_checks.sh (from the repo root; BUILD= selects the build dir)
. "$(dirname "$0")/../lib/shell_checks.sh"
prog=test/retarget/flat_checks.hip
kernels="_Z13gather_mirrorIfLi256EEvPK5ViewsIT_E _Z13gather_mirrorIdLi64EEvPK5ViewsIT_E"

mkdir -p "$tmp/keep"
if ! LDSAN_EMU_VERBOSE=1 LDSAN_EMU_KEEP_TEMPS=1 TMPDIR="$tmp/keep" "$BUILD/bin/ldsan-cc" --emulate -O2 -fsanitize=lds \
     -Itest/emulator "$prog" -o "$tmp/prog_lds" 2>"$tmp/cc.err"; then
  cat "$tmp/cc.err"; echo "FAIL: ldsan-cc --emulate -O2 -fsanitize=lds $prog"; exit 1
fi
for k in $kernels; do
  if grep -F "kernel '$k': " "$tmp/cc.err" | grep -qE "': [1-9][0-9]* work-item loops check ldsan's own shadow \(LDS-only\) once per loop"; then
    ok "$k: loops check the shadow once"
  else
    bad "$k: no loop checks the shadow once"; grep -F "'$k'" "$tmp/cc.err"
  fi
done
if bc=$(find "$tmp/keep" -name '*flat_checks.bc' | head -1) && [[ -n "$bc" ]] &&
   "$BUILD/bin/ldsan-emu-retarget" "$bc" -o "$tmp/x.o" --emit-ll "$tmp/x.ll" -O2; then
  for k in $kernels; do
    awk "/^define .*@__ldsan_emu_group\\.$k\\(/,/^}/" "$tmp/x.ll" >"$tmp/group.ll"
    calls=$(grep -c 'call .*@__ldsan_flat_lds_access(' "$tmp/group.ll" || true)
    tests=$(grep -cE '%ldsan\.flat\.maybe_lds[.a-z0-9]* = icmp ult ' "$tmp/group.ll" || true)
    if ((calls > 0 && tests >= calls)); then
      ok "$k: $calls flat-access checks, each behind a range test"
    else
      bad "$k: $calls flat-access checks, $tests range tests in its group function"
    fi
  done
else
  bad "cannot retarget the kept bitcode of $prog"
fi
if ! "$BUILD/bin/ldsan-cc" --emulate -O2 -Itest/emulator "$prog" -o "$tmp/prog" 2>"$tmp/cc_full.err"; then
  cat "$tmp/cc_full.err"; echo "FAIL: ldsan-cc --emulate -O2 $prog"; exit 1
fi
runs_clean flat_checks prog_lds prog
exit $fail
