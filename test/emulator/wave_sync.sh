#!/usr/bin/env bash
# The portability warning of option report_wave_sync, field by field: the
# lockstep-dependent kernel (warn_wave_sync.hip) gets one warning naming the
# variable, both lanes with their work-items, both source lines, and keeps
# its result and exit status 0; without the option it prints nothing; its
# barrier-correct twin (clean_wave_sync_twin.hip) gets no warning.
set -u
BUILD="${BUILD:-build}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # what, haystack file, needle
  if grep -qF -- "$3" "$2"; then echo "ok   $1"; else echo "FAIL $1: no '$3' in:"; sed 's/^/    | /' "$2"; fail=1; fi
}
absent() {
  if grep -qF -- "$3" "$2"; then echo "FAIL $1: '$3' printed"; fail=1; else echo "ok   $1"; fi
}
"$BUILD/bin/ldsan-cc" --emulate test/emulator/warn_wave_sync.hip -o "$tmp/warn" || exit 1
"$BUILD/bin/ldsan-cc" --emulate test/emulator/clean_wave_sync_twin.hip -o "$tmp/twin" || exit 1
LDSAN_OPTIONS=report_wave_sync=1 "$tmp/warn" >"$tmp/out" 2>"$tmp/err"; rc=$?
[[ $rc -eq 0 ]] && echo "ok   exit status 0 with the warning" || { echo "FAIL exit status $rc"; fail=1; }
check "result unchanged" "$tmp/out" "warn_wave_sync: PASSED"
check "headline" "$tmp/err" "WARNING: ldsan: wave-sync-dependence in kernel neighbours(int const*, int*): lane 0 reads LDS that lane 1 of its wave wrote"
check "reading lane" "$tmp/err" "READ of size 4 at"
check "reading line" "$tmp/err" "in neighbours(int const*, int*) test/emulator/warn_wave_sync.hip:18"
check "writing lane" "$tmp/err" "previous WRITE of size 4 at"
check "writing line" "$tmp/err" "in neighbours(int const*, int*) test/emulator/warn_wave_sync.hip:17"
check "variable" "$tmp/err" "inside of LDS variable 'slots' of size 512"
check "summary" "$tmp/err" "SUMMARY: ldsan: wave-sync-dependence test/emulator/warn_wave_sync.hip:18"
[[ $(grep -c "WARNING: ldsan: wave-sync-dependence" "$tmp/err") -eq 1 ]] && echo "ok   one warning per pair of lines" ||
  { echo "FAIL more than one warning for one pair of lines"; fail=1; }
"$tmp/warn" >"$tmp/out2" 2>"$tmp/err2"
absent "no warning without the option" "$tmp/err2" "wave-sync-dependence"
LDSAN_OPTIONS=report_wave_sync=1 "$tmp/twin" >"$tmp/out3" 2>"$tmp/err3"
absent "no warning for the barrier-correct twin" "$tmp/err3" "wave-sync-dependence"
check "twin result" "$tmp/out3" "clean_wave_sync_twin: PASSED"
exit $fail
