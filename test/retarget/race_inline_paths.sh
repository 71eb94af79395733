#!/usr/bin/env bash
# The LDS checks' inline path in work-item loops (retarget_lds_track.cpp):
# the retarget tool gives every checked group function's whole-word accesses
# one, and what it keeps of an access is what the core would keep (the
# records of lds_track.h): each race of race_inline_paths.hip, whose
# first access takes the inline path, is reported with both accesses' lines
# and work-items (tile2d's in lockstep waves, the others in plain loops);
# the fixed kernels report nothing and read the right values.
# Usage: test/retarget/race_inline_paths.sh (from the repo root; BUILD= selects the build dir)
. "$(dirname "$0")/../lib/shell_checks.sh"
prog=test/retarget/race_inline_paths.hip
line() { grep -n "// $1\$" "$prog" | cut -d: -f1; }

if ! LDSAN_EMU_VERBOSE=1 "$BUILD/bin/ldsan-cc" --emulate -O2 -Itest/emulator "$prog" -o "$tmp/prog" 2>"$tmp/cc.err"; then
  cat "$tmp/cc.err"; echo "FAIL: ldsan-cc --emulate $prog"; exit 1
fi
# Every kernel's checked loops have inline paths (the racy and the fixed ones).
for k in wide first_read tile2d rewrite; do
  for fixed in false true; do
    name="$k<$fixed>"
    n=$(grep -F "kernel '_Z$((${#k}))${k}ILb$([[ $fixed == true ]] && echo 1 || echo 0)EEvPKfPf': its LDS checks run in work-item loops" "$tmp/cc.err" |
        sed -nE 's/.*[(,] ?([0-9]+) of ([0-9]+) access checks with an inline path\)/\1/p')
    [[ -n "$n" && "$n" -gt 0 ]] && ok "$name: $n inline paths in its checked loops" ||
      { bad "$name: no inline path in its checked loops"; grep -F "${k}ILb" "$tmp/cc.err"; }
  done
done

LDSAN_OPTIONS=detect_races=1:halt_on_error=0:color=never "$tmp/prog" >"$tmp/out" 2>"$tmp/err"
summary() {  # summary <kernel> <first line> <previous line>: the report's SUMMARY names both
  grep -qE "^SUMMARY: AddressSanitizer: lds-data-race $prog:$2:[0-9]+ in $1\\(float const\\*, float\\*\\) \\(previous access at $prog:$3:[0-9]+\\)" "$tmp/err"
}
headline() { grep -qF "ERROR: AddressSanitizer: lds-data-race in kernel $1" "$tmp/err"; }
headline "void wide<false>(float const*, float*): read-after-write by work-items (70,0,0) and (3,0,0)" &&
  grep -qF "previous WRITE of size 16 at" "$tmp/err" && summary "void wide<false>" "$(line wide-read)" "$(line wide-write)" &&
  ok "wide: the read of the wide write's last word races with it" || bad "wide: no read-after-write naming both lines"
headline "void first_read<false>(float const*, float*): write-after-read by work-items (70,0,0) and (3,0,0)" &&
  summary "void first_read<false>" "$(line late-write)" "$(line first-read)" &&
  ok "first_read: the write races with the interval's first read" || bad "first_read: no write-after-read naming the first read"
grep -q ":$(line second-read):" "$tmp/err" && bad "first_read: the second read is named" || ok "first_read: the second read is not named"
# tile2d<false> runs its waves in lockstep (a load after a store with no
# barrier): which wave goes first is the scheduler's, so either access may
# be the first; both work-items and lines are named either way.
{ { headline "void tile2d<false>(float const*, float*): read-after-write by work-items (1,5,0) and (2,1,0)" &&
    summary "void tile2d<false>" "$(line cell-read)" "$(line cell-write)"; } ||
  { headline "void tile2d<false>(float const*, float*): write-after-read by work-items (2,1,0) and (1,5,0)" &&
    summary "void tile2d<false>" "$(line cell-write)" "$(line cell-read)"; }; } &&
  ok "tile2d: (1,5,0) and (2,1,0) race on the cell" || bad "tile2d: no race of (1,5,0) and (2,1,0) naming both lines"
n=$(grep -c "^SUMMARY: AddressSanitizer: lds-data-race" "$tmp/err")
[[ $n -eq 3 ]] && ok "3 error reports" || bad "$n error reports, expected 3"
# rewrite: one write-after-write and one read-after-write warning, each with its repeats counted.
n=$(grep -c "WARNING: ldsan: lds-data-race in kernel void rewrite<false>(float const\*, float\*)" "$tmp/err")
grep -qF "WARNING: ldsan: lds-data-race in kernel void rewrite<false>(float const*, float*): write-after-write" "$tmp/err" &&
  grep -qF "WARNING: ldsan: lds-data-race in kernel void rewrite<false>(float const*, float*): read-after-write" "$tmp/err" &&
  [[ $n -eq 2 ]] && ok "rewrite: one write-after-write and one read-after-write warning" ||
  bad "rewrite: $n warnings, expected a write-after-write and one read-after-write (the write's pc the same whoever kept it)"
[[ $fail -eq 0 ]] || sed 's/^/    | /' "$tmp/err" | head -60

LDSAN_OPTIONS=detect_races=1:detect_uninit=1 "$tmp/prog" fixed >"$tmp/out" 2>"$tmp/err"
rc=$?
[[ $rc -eq 0 && ! -s "$tmp/err" ]] && grep -q "race_inline_paths: done" "$tmp/out" &&
  ok "fixed kernels: no report, the right values" || { bad "fixed kernels: exit $rc"; head -30 "$tmp/err"; }
exit $fail
