#!/usr/bin/env bash
# The LDS checks on the suite of planted bugs in lds_hazards.hip and their fixed
# twins (its RUN lines run this on the builds make made of it): every planted
# bug is reported with its kind and the right severity (between waves an error,
# exit status 1; within one wave a warning, exit 0), and no fixed kernel gets
# any report. Prints the table docs/races.md shows.
#   runtime: the emulator's run-time checks (LDSAN_OPTIONS=detect_races=1:
#            detect_uninit=1, core_lds_check.c) on a build without compiled-in checks;
#   device:  the checks compiled in (-fsanitize-lds=races,uninit: device/lds_checks.c,
#            as on a GPU), run with no run-time option.
# The wave size is the build's: 32 for an RDNA target (gfx1100), where the planted
# wave64 exchanges, work-items 32 apart, are races between waves: errors.
# Usage: lds_checks.sh runtime|device 64|32 <lds_hazards program>   (from the repo root)
set -u
part="${1:?usage: lds_checks.sh runtime|device 64|32 <program>}" wave="${2:?}" hz="${3:?}"
[[ "$part" == runtime || "$part" == device ]] || { echo "lds_checks.sh: part '$part': want runtime or device"; exit 1; }
[[ -x "$hz" ]] || { echo "lds_checks.sh: $hz was not built (make test-programs; its log: $hz.log)"; exit 1; }
if [[ $wave -eq 32 ]]; then
  # Between waves now: an error; the device checks may see the read of the
  # other wave's slot first as a read of unwritten LDS (an error too), and the
  # barrier test's race is a write-after-read between its two waves.
  same_wave_race="ERROR: AddressSanitizer: lds-data-race"; same_wave_rc=1
  device_exchange="ERROR: AddressSanitizer: lds-"
  # The wave barrier orders a wave's own lanes only: lanes 32 apart race.
  synced_exchange="ERROR: AddressSanitizer: lds-data-race: read-after-write"; synced_rc=1
  device_synced="ERROR: AddressSanitizer: lds-"
else
  same_wave_race="WARNING: ldsan: lds-data-race"; same_wave_rc=0
  device_exchange="$same_wave_race"
  synced_exchange=none; synced_rc=0; device_synced=none
fi
src=test/emulator/lds_hazards.hip
# The lines the staged case's report names: its write and its read of tile.
write_line=$(grep -n 'BUG when unfixed: overwrites what others still read' "$src" | cut -d: -f1)
read_line=$(grep -n 'acc += tile\[(t + 64) % WG\];' "$src" | cut -d: -f1)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
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
if [[ $part == runtime ]]; then
run_cases "$hz" color=never:detect_races=1:detect_uninit=1 "" <<CASES
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
LDSAN_OPTIONS=color=never:detect_races=1 "$hz" staged >/dev/null 2>"$tmp/err"
for want in "inside of LDS variable 'tile' of size 1024" "in void staged<false>(int const*, int*) $src:$write_line" \
            "previous READ of size 4" "$src:$read_line" \
            "SUMMARY: AddressSanitizer: lds-data-race $src:"; do
  grep -qF -- "$want" "$tmp/err" && echo "ok   staged report has: $want" || { echo "FAIL staged report lacks: $want"; fail=1; }
done
# JSON carries the second access, the hazard and the severity; repeats are counted.
LDSAN_OPTIONS=detect_races=1:report_format=json "$hz" staged >/dev/null 2>"$tmp/err"
for want in '"type":"lds-data-race"' '"hazard":"write-after-read"' '"severity":"error"' '"same_wave":false' \
            '"other":{"thread":[' "\"location\":\"$src:$read_line:" '"access":"read","size":4,"atomic":false}'; do
  grep -qF -- "$want" "$tmp/err" && echo "ok   staged JSON has: $want" || { echo "FAIL staged JSON lacks: $want"; fail=1; }
done
more=$(grep -oE '"more_work_items":[0-9]+' "$tmp/err" | head -1 | cut -d: -f2)
[[ "${more:-0}" -gt 0 ]] && echo "ok   staged JSON counts $more more work-items" || { echo "FAIL staged JSON counts no repeats"; fail=1; }
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
[[ $part == runtime ]] && within_wave_check "$hz" color=never:detect_races=1 ""
if [[ $part == device ]]; then
# The GPU path: the same suite built with the checks compiled in
# (-fsanitize-lds=races,uninit: device/lds_checks.c, as on a GPU), run with no
# run-time option. Errors trap at the access (exit 1), so the first one found
# is the report: in the transpose a work-item may read its tile element before
# the other wave wrote it (lds-uninitialized-read) or after (lds-data-race).
# Barrier divergence (waves past one barrier epoch at different barriers, a
# wave that returned before a barrier) is found at the next barrier or after
# the kernel's exit barrier.
run_cases "$hz" color=never device: <<CASES
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
within_wave_check "$hz" color=never device:
# Both accesses of a device report, named and symbolized.
LDSAN_OPTIONS=color=never "$hz" staged >/dev/null 2>"$tmp/err"
for want in "ERROR: AddressSanitizer: lds-data-race in kernel void staged<false>(int const*, int*): write-after-read by work-items" \
            "WRITE of size 4 at" "previous READ of size 4 at" "$src:$read_line" \
            "inside of LDS variable 'tile' of size 1024" "SUMMARY: AddressSanitizer: lds-data-race $src:$write_line"; do
  grep -qF -- "$want" "$tmp/err" && echo "ok   device staged report has: $want" || { echo "FAIL device staged report lacks: $want"; fail=1; }
done
# halt_on_error=0: the kernel runs on and the reports are counted.
LDSAN_OPTIONS=color=never:halt_on_error=0 "$hz" reduce >/dev/null 2>"$tmp/err"
grep -qE 'more work-items .* made the same lds-data-race' "$tmp/err" && echo "ok   device reduce: repeats counted" \
  || { echo "FAIL device reduce: no repeat count"; sed 's/^/    | /' "$tmp/err" | head -20; fail=1; }
# The emulator's run-time checks replace compiled-in ones: each finding once.
LDSAN_OPTIONS=color=never:detect_races=1 "$hz" staged >/dev/null 2>"$tmp/err"
n_reports=$(grep -c 'lds-data-race in kernel' "$tmp/err"); n_emu=$(grep -c "found by the CPU emulator's LDS checks" "$tmp/err")
[[ $n_reports -gt 0 && $n_reports -eq $n_emu ]] && echo "ok   run-time checks replace compiled-in ones ($n_reports reports)" \
  || { echo "FAIL compiled-in checks still report beside the run-time ones ($n_reports reports, $n_emu from the emulator)"; fail=1; }
fi
exit $fail
