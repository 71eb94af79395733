#!/usr/bin/env bash
# Dedup by source location (host/drain.c): race_unrolled_dedup.hip's matmul
# misses a barrier, and its unrolled inner loop reads each tile through 8
# copies of one access, each with its own pc. Each race is reported once, with
# the other work-items counted "at this source location": four reports (a
# read-after-write and a write-after-read on each of the two tiles; one wave,
# so warnings); one report per pc pair printed 20, the same SUMMARY lines
# repeated. The fixed kernel is silent and right.
# Usage: test/retarget/race_unrolled_dedup.sh (from the repo root; BUILD= selects the build dir)
. "$(dirname "$0")/../lib/shell_checks.sh"
prog=test/retarget/race_unrolled_dedup.hip

"$BUILD/bin/ldsan-cc" --emulate -O2 -Itest/emulator "$prog" -o "$tmp/prog" || { echo "FAIL: ldsan-cc --emulate $prog"; exit 1; }
LDSAN_OPTIONS=detect_races=1:color=never "$tmp/prog" >"$tmp/out" 2>"$tmp/err"
n=$(grep -cE '^SUMMARY: [^:]*: lds-data-race' "$tmp/err")
dups=$(grep -E '^SUMMARY: [^:]*: lds-data-race' "$tmp/err" | sort | uniq -d | wc -l)
[[ "$n" -eq 4 ]] && ok "4 race reports" || { bad "expected 4 race reports, got $n"; grep -E '^SUMMARY' "$tmp/err"; }
[[ "$dups" -eq 0 ]] && ok "no two reports with the same source locations" ||
  { bad "$dups source-location pair(s) reported more than once"; grep '^SUMMARY' "$tmp/err" | sort | uniq -c; }
grep -q "^SUMMARY: ldsan: lds-data-race $prog:[0-9]*:[0-9]* in void matmul<double, 8, false>" "$tmp/err" &&
  ok "the reports name the kernel and the source lines" || bad "no report names matmul<double, 8, false> and its line"
folded=$(grep -c 'more work-items (.*) made the same lds-data-race at this source location' "$tmp/err")
[[ "$folded" -eq "$n" ]] && ok "every report counts the other work-items at its source location" ||
  bad "$folded of $n reports count the others at their source location"
if LDSAN_OPTIONS=detect_races=1 "$tmp/prog" fixed >"$tmp/out" 2>"$tmp/err" &&
   grep -q "race_unrolled_dedup: PASSED" "$tmp/out" && ! grep -q "lds-data-race" "$tmp/err"; then
  ok "fixed: right product, no report"
else
  bad "fixed: a report or a wrong product"; cat "$tmp/out" "$tmp/err"
fi
exit $fail
