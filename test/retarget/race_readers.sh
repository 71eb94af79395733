#!/usr/bin/env bash
# The readers the LDS checks keep of a barrier interval (core_lds_check.c,
# emu_step; the inline path of retarget_lds_track.cpp): race_readers.hip's
# writes race with a read kept only if a later read of the reader's wave
# after a wave barrier replaces the earlier one (stale), a work-item's later
# read replaces its own earlier one (reread), and a write that races with a
# read of its own wave and one of another wave is reported as the error
# between waves (between), and an atomic write's race with a plain read is
# found although atomic reads of both waves came around it (atomics), and a
# plain write's with atomic reads only (plain). At -O0 (fibers and plain loops) and -O2 (loops
# with inline paths); the fixed kernels report nothing and compute the same.
# Usage: test/retarget/race_readers.sh (from the repo root; BUILD= selects the build dir)
. "$(dirname "$0")/../lib/shell_checks.sh"
prog=test/retarget/race_readers.hip
line() { grep -n "// $1\$" "$prog" | cut -d: -f1; }
summary() {  # summary <kind: AddressSanitizer|ldsan> <kernel> <line> <previous line>
  grep -qE "^SUMMARY: $1: lds-data-race $prog:$3:[0-9]+ in void $2<false>\\(int const\\*, int\\*\\) \\(previous access at $prog:$4:[0-9]+\\)" "$tmp/err"
}
for opt in -O0 -O2; do
  if ! "$BUILD/bin/ldsan-cc" --emulate $opt -Itest/emulator "$prog" -o "$tmp/prog" 2>"$tmp/cc.err"; then
    cat "$tmp/cc.err"; bad "$opt: ldsan-cc --emulate $prog"; continue
  fi
  LDSAN_OPTIONS=detect_races=1:halt_on_error=0:color=never "$tmp/prog" >"$tmp/out" 2>"$tmp/err"
  grep -qF "WARNING: ldsan: lds-data-race in kernel void stale<false>(int const*, int*): write-after-read within one wave by work-items (0,0,0) and (2,0,0)" "$tmp/err" &&
    summary ldsan stale "$(line stale-write)" "$(line late-read)" &&
    ok "$opt stale: lane 0's write races with lane 2's read after the wave barrier" ||
    bad "$opt stale: no warning naming lane 2's read after the wave barrier"
  grep -qF "WARNING: ldsan: lds-data-race in kernel void reread<false>(int const*, int*): write-after-read within one wave by work-items (1,0,0) and (0,0,0)" "$tmp/err" &&
    summary ldsan reread "$(line reread-write)" "$(line reread)" &&
    ok "$opt reread: lane 1's write races with lane 0's second read" ||
    bad "$opt reread: no warning naming lane 0's second read"
  grep -qF "ERROR: AddressSanitizer: lds-data-race in kernel void between<false>(int const*, int*): write-after-read by work-items (1,0,0) and (64,0,0)" "$tmp/err" &&
    summary AddressSanitizer between "$(line between-write)" "$(line two-waves-read)" &&
    ok "$opt between: the race with lane 64 (another wave) is the error" ||
    bad "$opt between: no error naming lane 64's read"
  # (At -O0 atomicAdd is a call: the write's frame is its line in HIP's header.)
  grep -qF "ERROR: AddressSanitizer: lds-data-race in kernel void atomics<false>(int const*, int*): write-after-read by work-items (65,0,0) and (2,0,0)" "$tmp/err" &&
    grep -qE "^SUMMARY: AddressSanitizer: lds-data-race .* \\(previous access at $prog:$(line plain-read):[0-9]+\\)$" "$tmp/err" &&
    grep -qE "^    #0 0x[0-9a-f]+ in (void atomics<false>\\(int const\\*, int\\*\\) $prog:$(line atomic-add)|atomicAdd\\(int\\*, int\\) /)" "$tmp/err" &&
    ok "$opt atomics: lane 65's atomic add races with lane 2's plain read" ||
    bad "$opt atomics: no error naming lane 2's plain read"
  grep -qF "ERROR: AddressSanitizer: lds-data-race in kernel void plain<false>(int const*, int*): write-after-read by work-items (65,0,0) and (1,0,0)" "$tmp/err" &&
    summary AddressSanitizer plain "$(line plain-write)" "$(line atomic-reads)" &&
    ok "$opt plain: lane 65's plain write races with lane 1's atomic read" ||
    bad "$opt plain: no error naming lane 1's atomic read"
  ! grep -q "ldsan\\.checked" "$tmp/err" && ok "$opt: no report names the emulator's checked copy of a function" ||
    bad "$opt: a report names a function with its checked copy's suffix"
  n=$(grep -c "^SUMMARY:" "$tmp/err")
  [[ $n -eq 5 ]] && ok "$opt: 5 reports" || bad "$opt: $n reports, expected 5"
  grep -q "race_readers: done" "$tmp/out" && ok "$opt: results as on a GPU" || bad "$opt: wrong results"
  [[ $fail -eq 0 ]] || sed 's/^/    | /' "$tmp/err" "$tmp/out" | head -40

  LDSAN_OPTIONS=detect_races=1:detect_uninit=1 "$tmp/prog" fixed >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [[ $rc -eq 0 && ! -s "$tmp/err" ]] && grep -q "race_readers: done" "$tmp/out" &&
    ok "$opt fixed: no report, results as on a GPU" || { bad "$opt fixed: exit $rc"; sed 's/^/    | /' "$tmp/err" | head -20; }
done
exit $fail
