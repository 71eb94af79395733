#!/usr/bin/env bash
# The emulator's LDS checks (LDSAN_OPTIONS=detect_races=1:detect_uninit=1,
# core_lds_check.c) on the suite of planted bugs in lds_hazards.hip and
# their fixed twins: every planted bug is reported with its kind and the
# right severity (between waves an error, exit status 1; within one wave a
# warning, exit 0), no fixed kernel gets any report, and clean programs of
# the emulator suite get no error either. Prints the table the README shows.
set -u
BUILD="${BUILD:-build}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$BUILD/bin/ldsan-cc" --emulate test/emulator/lds_hazards.hip -o "$tmp/hz" || exit 1
fail=0
printf '%-22s %-46s %s\n' case expected result
# case | expected headline (severity: bug: ... : hazard) | exit status
while IFS='|' read -r c want rc_want; do
  LDSAN_OPTIONS=color=never:detect_races=1:detect_uninit=1 "$tmp/hz" "$c" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  got=$(grep -oE '(ERROR|WARNING): [A-Za-z]+: [a-z-]+ in kernel [^:]*: [a-z-]+' "$tmp/err" |
        sed -E 's/ in kernel [^:]*:/:/' | sort -u | tr '\n' ';')
  ok=1
  if [[ "$want" == none ]]; then [[ -z "$got" ]] || ok=0
  else [[ "$got" == *"$want"* ]] || ok=0; fi
  [[ $rc -eq $rc_want ]] || ok=0
  printf '%-22s %-46s %s\n' "$c" "$want (exit $rc_want)" "$([[ $ok -eq 1 ]] && echo found || echo "MISSED: exit $rc, ${got:-nothing}")"
  [[ $ok -eq 1 ]] || { fail=1; sed 's/^/    | /' "$tmp/err" | head -30; }
done <<'CASES'
reduce|ERROR: AddressSanitizer: lds-data-race: write-after-read|1
reduce-fixed|none|0
transpose|ERROR: AddressSanitizer: lds-data-race: write-after-read|1
transpose-fixed|none|0
histogram|ERROR: AddressSanitizer: lds-data-race: read-after-write|1
histogram-fixed|none|0
staged|ERROR: AddressSanitizer: lds-data-race: write-after-read|1
staged-fixed|none|0
wave-exchange|WARNING: ldsan: lds-data-race: read-after-write|0
wave-exchange-fixed|none|0
stencil|ERROR: AddressSanitizer: lds-uninitialized-read: read|1
stencil-fixed|none|0
dynamic|ERROR: AddressSanitizer: lds-uninitialized-read: read|1
dynamic-fixed|none|0
scan|ERROR: AddressSanitizer: lds-data-race: write-after-read|1
scan-fixed|none|0
partial-tile|ERROR: AddressSanitizer: lds-uninitialized-read: read|1
partial-tile-fixed|none|0
split-barrier|ERROR: AddressSanitizer: barrier-divergence: work-item|1
split-barrier-fixed|none|0
early-exit|WARNING: ldsan: barrier-divergence: work-item|0
early-exit-fixed|none|0
CASES
# The report names the variable and both lines (one case, field by field).
LDSAN_OPTIONS=color=never:detect_races=1 "$tmp/hz" staged >/dev/null 2>"$tmp/err"
for want in "inside of LDS variable 'tile' of size 1024" "in void staged<false>(int const*, int*) test/emulator/lds_hazards.hip:55" \
            "previous READ of size 4" "test/emulator/lds_hazards.hip:57" \
            "SUMMARY: AddressSanitizer: lds-data-race test/emulator/lds_hazards.hip:"; do
  grep -qF -- "$want" "$tmp/err" && echo "ok   staged report has: $want" || { echo "FAIL staged report lacks: $want"; fail=1; }
done
# JSON carries the second access, the hazard and the severity; repeats are counted.
LDSAN_OPTIONS=detect_races=1:report_format=json "$tmp/hz" staged >/dev/null 2>"$tmp/err"
for want in '"type":"lds-data-race"' '"hazard":"write-after-read"' '"severity":"error"' '"same_wave":false' \
            '"other":{"thread":[' '"location":"test/emulator/lds_hazards.hip:57:' '"access":"read","size":4,"atomic":false}'; do
  grep -qF -- "$want" "$tmp/err" && echo "ok   staged JSON has: $want" || { echo "FAIL staged JSON lacks: $want"; fail=1; }
done
more=$(grep -oE '"more_work_items":[0-9]+' "$tmp/err" | head -1 | cut -d: -f2)
[[ "${more:-0}" -gt 0 ]] && echo "ok   staged JSON counts $more more work-items" || { echo "FAIL staged JSON counts no repeats"; fail=1; }
# clean_barrier_shapes runs shapes that work on AMD GPUs but break the
# barrier rules: its odd/even barriers are an error, its early return a warning.
"$BUILD/bin/ldsan-cc" --emulate -Itest/emulator test/emulator/clean_barrier_shapes.hip -o "$tmp/shapes" || fail=1
LDSAN_OPTIONS=color=never:detect_races=1:halt_on_error=0 "$tmp/shapes" >/dev/null 2>"$tmp/err"
for want in "ERROR: AddressSanitizer: barrier-divergence in kernel divergent(int*): work-item" \
            "WARNING: ldsan: barrier-divergence in kernel early_return(int*, int): work-item" \
            "returned from the kernel without reaching it"; do
  grep -qF -- "$want" "$tmp/err" && echo "ok   clean_barrier_shapes: $want" || { echo "FAIL clean_barrier_shapes lacks: $want"; fail=1; }
done
# Correct programs of the suite: no error with both checks on.
for p in clean_reduction clean_transpose clean_scan clean_stencil clean_histogram clean_matmul; do
  "$BUILD/bin/ldsan-cc" --emulate -Itest/emulator "test/emulator/$p.hip" -o "$tmp/$p" || { fail=1; continue; }
  LDSAN_OPTIONS=color=never:detect_races=1:detect_uninit=1 "$tmp/$p" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [[ $rc -eq 0 ]] && ! grep -q 'ERROR: AddressSanitizer' "$tmp/err"; then echo "ok   $p: no error"
  else echo "FAIL $p: exit $rc"; sed 's/^/    | /' "$tmp/err" | head -20; fail=1; fi
done
exit $fail
