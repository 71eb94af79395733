#!/usr/bin/env bash
# The emulator's LDS checks (LDSAN_OPTIONS=detect_races=1:detect_uninit=1,
# core_lds_check.c) on the suite of planted bugs in lds_hazards.hip and
# their fixed twins: every planted bug is reported with its kind and the
# right severity (between waves an error, exit status 1; within one wave a
# warning, exit 0), no fixed kernel gets any report, and clean programs of
# the emulator suite get no error either. Prints the table the README shows.
# LDS_CHECKS_CFLAGS adds flags to every build (-fsanitize=lds: the LDS-only mode;
# an RDNA target: wave32, where the planted wave64 exchanges, work-items 32
# apart, are races between waves: errors). LDS_CHECKS_PART=runtime|device|clean
# runs one third (the run-time checks on the planted suite; the compiled-in
# ones; correct programs and option parsing): the test lists run the thirds as
# three tests, each within the runner's per-test time limit.
set -u
wave=64
[[ " ${LDS_CHECKS_CFLAGS:-} " =~ --offload-arch=gfx1[0-9]{3}\  && " ${LDS_CHECKS_CFLAGS:-} " != *" -mwavefrontsize64 "* ]] && wave=32
if [[ $wave -eq 32 ]]; then
  # Between waves now: an error; the device checks may see the read of the
  # other wave's slot first as a read of unwritten LDS (an error too), and the
  # barrier test's race is a write-after-read between its two waves.
  same_wave_race="ERROR: AddressSanitizer: lds-data-race"; same_wave_rc=1
  device_exchange="ERROR: AddressSanitizer: lds-"; many_race="ERROR: AddressSanitizer: lds-data-race in kernel many"
  # The wave barrier orders a wave's own lanes only: lanes 32 apart race.
  synced_exchange="ERROR: AddressSanitizer: lds-data-race: read-after-write"; synced_rc=1
  device_synced="ERROR: AddressSanitizer: lds-"
else
  same_wave_race="WARNING: ldsan: lds-data-race"; same_wave_rc=0
  device_exchange="$same_wave_race"; many_race="$same_wave_race in kernel many(int\\*, int, int): read-after-write"
  synced_exchange=none; synced_rc=0; device_synced=none
fi
BUILD="${BUILD:-build}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
part="${LDS_CHECKS_PART:-all}"
in_part() { [[ $part == all || $part == "$1" ]]; }
in_part runtime && { "$BUILD/bin/ldsan-cc" --emulate ${LDS_CHECKS_CFLAGS:-} test/emulator/lds_hazards.hip -o "$tmp/hz" || exit 1; }
fail=0
printf '%-22s %-46s %s\n' case expected result
# run_cases <binary> <LDSAN_OPTIONS> <label prefix>, cases on stdin:
# case | expected headline (severity: bug: ... : hazard, or a prefix of it) | exit status
run_cases() {
  local c want rc_want rc got ok
  while IFS='|' read -r c want rc_want; do
    LDSAN_OPTIONS=$2 "$1" "$c" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    got=$(grep -oE '(ERROR|WARNING): [A-Za-z]+: [a-z-]+ in kernel [^:]*: [a-z-]+' "$tmp/err" |
          sed -E 's/ in kernel [^:]*:/:/' | sort -u | tr '\n' ';')
    ok=1
    if [[ "$want" == none ]]; then [[ -z "$got" ]] || ok=0
    else [[ "$got" == *"$want"* ]] || ok=0; fi
    [[ $rc -eq $rc_want ]] || ok=0
    printf '%-22s %-46s %s\n' "$3$c" "$want (exit $rc_want)" "$([[ $ok -eq 1 ]] && echo found || echo "MISSED: exit $rc, ${got:-nothing}")"
    [[ $ok -eq 1 ]] || { fail=1; sed 's/^/    | /' "$tmp/err" | head -30; }
  done
}
# The hazard's kind is the order the emulator ran the pair in: reduce and transpose
# (lockstep, work-item loops) make every wave's stores in one pass and the loads in
# the next, so the second access is a read.
if in_part runtime; then
run_cases "$tmp/hz" color=never:detect_races=1:detect_uninit=1 "" <<CASES
reduce|ERROR: AddressSanitizer: lds-data-race: read-after-write|1
reduce-fixed|none|0
transpose|ERROR: AddressSanitizer: lds-data-race: read-after-write|1
transpose-fixed|none|0
histogram|ERROR: AddressSanitizer: lds-data-race: read-after-write|1
histogram-fixed|none|0
staged|ERROR: AddressSanitizer: lds-data-race: write-after-read|1
staged-fixed|none|0
wave-exchange|$same_wave_race: read-after-write|$same_wave_rc
wave-exchange-fixed|none|0
wave-exchange-synced|$synced_exchange|$synced_rc
stencil|ERROR: AddressSanitizer: lds-uninitialized-read: read|1
stencil-fixed|none|0
dynamic|ERROR: AddressSanitizer: lds-uninitialized-read: read|1
dynamic-fixed|none|0
scan|ERROR: AddressSanitizer: lds-data-race: |1
scan-fixed|none|0
partial-tile|ERROR: AddressSanitizer: lds-uninitialized-read: read|1
partial-tile-fixed|none|0
split-barrier|ERROR: AddressSanitizer: barrier-divergence: work-item|1
split-barrier-fixed|none|0
split-lanes|ERROR: AddressSanitizer: barrier-divergence: work-item|1
split-lanes-fixed|none|0
loop-lanes|ERROR: AddressSanitizer: barrier-divergence: work-item|1
loop-lanes-fixed|none|0
early-exit|WARNING: ldsan: barrier-divergence: work-item|0
early-exit-lanes|WARNING: ldsan: barrier-divergence: work-item|0
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
"$BUILD/bin/ldsan-cc" --emulate ${LDS_CHECKS_CFLAGS:-} -Itest/emulator test/emulator/clean_barrier_shapes.hip -o "$tmp/shapes" || fail=1
LDSAN_OPTIONS=color=never:detect_races=1:halt_on_error=0 "$tmp/shapes" >/dev/null 2>"$tmp/err"
for want in "ERROR: AddressSanitizer: barrier-divergence in kernel divergent(int*): work-item" \
            "WARNING: ldsan: barrier-divergence in kernel early_return(int*, int): work-item" \
            "returned from the kernel without reaching it"; do
  grep -qF -- "$want" "$tmp/err" && echo "ok   clean_barrier_shapes: $want" || { echo "FAIL clean_barrier_shapes lacks: $want"; fail=1; }
done
fi
# Divergence within one wave says so (lanes of one wave at two barriers; some
# lanes of a wave returned).
within_wave_check() { # <binary> <LDSAN_OPTIONS> <label>
  LDSAN_OPTIONS=$2 "$1" split-lanes >/dev/null 2>"$tmp/err"
  grep -qE "barrier-divergence in kernel .*: work-item \([0-9]+,0,0\) waits at a barrier while work-item \([0-9]+,0,0\) of its wave waits at another one" "$tmp/err" \
    && echo "ok   $3split-lanes: within one wave" || { echo "FAIL $3split-lanes: not said to be within one wave"; sed 's/^/    | /' "$tmp/err" | head -20; fail=1; }
  # The two arms' barriers by their own lines (both are one __syncthreads()
  # of the HIP headers inlined twice: each copy is its own barrier).
  lines=$(grep -m1 '^SUMMARY: .*barrier-divergence' "$tmp/err" | grep -oE 'lds_hazards\.hip:[0-9]+' | sort -u | wc -l)
  [[ $lines -eq 2 ]] && echo "ok   $3split-lanes: the two barriers' lines" || { echo "FAIL $3split-lanes: the summary does not name two barrier lines"; grep '^SUMMARY' "$tmp/err"; fail=1; }
  LDSAN_OPTIONS=$2 "$1" early-exit-lanes >/dev/null 2>"$tmp/err"
  grep -qE "waits at a barrier that work-item \([0-9]+,0,0\) of its wave never reaches: it returned" "$tmp/err" \
    && echo "ok   $3early-exit-lanes: within one wave" || { echo "FAIL $3early-exit-lanes: not said to be within one wave"; sed 's/^/    | /' "$tmp/err" | head -20; fail=1; }
}
in_part runtime && within_wave_check "$tmp/hz" color=never:detect_races=1 ""
if in_part device; then
# The GPU path: the same suite built with the checks compiled in
# (-fsanitize-lds=races,uninit: device/lds_checks.c, as on a GPU), run with no
# run-time option. Errors trap at the access (exit 1), so the first one found
# is the report: in the transpose a work-item may read its tile element before
# the other wave wrote it (lds-uninitialized-read) or after (lds-data-race).
# Barrier divergence (waves past one barrier epoch at different barriers, a
# wave that returned before a barrier) is found at the next barrier or after
# the kernel's exit barrier.
"$BUILD/bin/ldsan-cc" --emulate ${LDS_CHECKS_CFLAGS:-} -fsanitize-lds=races,uninit test/emulator/lds_hazards.hip -o "$tmp/hzdev" || exit 1
run_cases "$tmp/hzdev" color=never device: <<CASES
reduce|ERROR: AddressSanitizer: lds-data-race|1
reduce-fixed|none|0
transpose|ERROR: AddressSanitizer: lds-|1
transpose-fixed|none|0
histogram|ERROR: AddressSanitizer: lds-data-race|1
histogram-fixed|none|0
staged|ERROR: AddressSanitizer: lds-data-race|1
staged-fixed|none|0
wave-exchange|$device_exchange|$same_wave_rc
wave-exchange-fixed|none|0
wave-exchange-synced|$device_synced|$synced_rc
stencil|ERROR: AddressSanitizer: lds-uninitialized-read|1
stencil-fixed|none|0
dynamic|ERROR: AddressSanitizer: lds-uninitialized-read|1
dynamic-fixed|none|0
scan|ERROR: AddressSanitizer: lds-data-race|1
scan-fixed|none|0
partial-tile|ERROR: AddressSanitizer: lds-uninitialized-read|1
partial-tile-fixed|none|0
split-barrier|ERROR: AddressSanitizer: barrier-divergence: work-item|1
split-barrier-fixed|none|0
split-lanes|ERROR: AddressSanitizer: barrier-divergence: work-item|1
split-lanes-fixed|none|0
loop-lanes|ERROR: AddressSanitizer: barrier-divergence: work-item|1
loop-lanes-fixed|none|0
early-exit|WARNING: ldsan: barrier-divergence: work-item|0
early-exit-lanes|WARNING: ldsan: barrier-divergence: work-item|0
early-exit-fixed|none|0
CASES
within_wave_check "$tmp/hzdev" color=never device:
# Both accesses of a device report, named and symbolized.
LDSAN_OPTIONS=color=never "$tmp/hzdev" staged >/dev/null 2>"$tmp/err"
for want in "ERROR: AddressSanitizer: lds-data-race in kernel void staged<false>(int const*, int*): write-after-read by work-items" \
            "WRITE of size 4 at" "previous READ of size 4 at" "test/emulator/lds_hazards.hip:57" \
            "inside of LDS variable 'tile' of size 1024" "SUMMARY: AddressSanitizer: lds-data-race test/emulator/lds_hazards.hip:55"; do
  grep -qF -- "$want" "$tmp/err" && echo "ok   device staged report has: $want" || { echo "FAIL device staged report lacks: $want"; fail=1; }
done
# halt_on_error=0: the kernel runs on and the reports are counted.
LDSAN_OPTIONS=color=never:halt_on_error=0 "$tmp/hzdev" reduce >/dev/null 2>"$tmp/err"
grep -qE 'more work-items .* made the same lds-data-race' "$tmp/err" && echo "ok   device reduce: repeats counted" \
  || { echo "FAIL device reduce: no repeat count"; sed 's/^/    | /' "$tmp/err" | head -20; fail=1; }
# The emulator's run-time checks replace compiled-in ones: each finding once.
LDSAN_OPTIONS=color=never:detect_races=1 "$tmp/hzdev" staged >/dev/null 2>"$tmp/err"
n_reports=$(grep -c 'lds-data-race in kernel' "$tmp/err"); n_emu=$(grep -c "found by the CPU emulator's LDS checks" "$tmp/err")
[[ $n_reports -gt 0 && $n_reports -eq $n_emu ]] && echo "ok   run-time checks replace compiled-in ones ($n_reports reports)" \
  || { echo "FAIL compiled-in checks still report beside the run-time ones ($n_reports reports, $n_emu from the emulator)"; fail=1; }
# More barriers than the device epochs count (2^15): rebased with no false
# report, and a race after that still found.
"$BUILD/bin/ldsan-cc" --emulate ${LDS_CHECKS_CFLAGS:-} -O2 -fsanitize-lds=races,uninit -Itest/emulator test/emulator/lds_many_barriers.hip -o "$tmp/many" || exit 1
LDSAN_OPTIONS=color=never "$tmp/many" >"$tmp/out" 2>"$tmp/err"
if [[ $? -eq 0 ]] && grep -q PASSED "$tmp/out" && ! grep -q 'lds-' "$tmp/err"; then echo "ok   100,000 barriers: no report"
else echo "FAIL 100,000 barriers"; sed 's/^/    | /' "$tmp/out" "$tmp/err" | head -20; fail=1; fi
LDSAN_OPTIONS=color=never "$tmp/many" race >"$tmp/out" 2>"$tmp/err"
grep -q "$many_race" "$tmp/err" \
  && echo "ok   100,000 barriers, then a race: found" || { echo "FAIL the race after 100,000 barriers was not found"; fail=1; }
fi
if in_part clean; then
# A bad list is refused with the words to use.
if "$BUILD/bin/ldsan-cc" --emulate ${LDS_CHECKS_CFLAGS:-} -fsanitize-lds=race test/emulator/lds_hazards.hip -o "$tmp/bad" 2>"$tmp/err"; then
  echo "FAIL -fsanitize-lds=race accepted"; fail=1
elif grep -qF "unknown LDS check 'race'" "$tmp/err"; then echo "ok   -fsanitize-lds=race refused"
else echo "FAIL -fsanitize-lds=race refused without naming it"; sed 's/^/    | /' "$tmp/err" | head; fail=1; fi
# Correct programs of the suite, optimized (-O2: the planted suite above is
# -O0): no error with both checks on, run-time (detect_races, detect_uninit)
# and compiled in (-fsanitize-lds). bench_reduce.hip's barrier in a loop once
# got copied by the host optimizer into two (a false barrier-divergence).
for p in clean_reduction clean_transpose clean_scan clean_stencil clean_histogram clean_matmul clean_odd_vars bench_reduce; do
  for how in run-time compiled-in; do
    if [[ $how == run-time ]]; then flags=(); opts=color=never:detect_races=1:detect_uninit=1
    else flags=(-fsanitize-lds=races,uninit); opts=color=never; fi
    "$BUILD/bin/ldsan-cc" --emulate ${LDS_CHECKS_CFLAGS:-} -O2 "${flags[@]}" -Itest/emulator "test/emulator/$p.hip" -o "$tmp/$p" || { fail=1; continue; }
    LDSAN_OPTIONS=$opts "$tmp/$p" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [[ $rc -eq 0 ]] && ! grep -q 'ERROR: AddressSanitizer' "$tmp/err"; then echo "ok   $p ($how checks): no error"
    else echo "FAIL $p ($how checks): exit $rc"; sed 's/^/    | /' "$tmp/err" | head -20; fail=1; fi
  done
done
fi
exit $fail
