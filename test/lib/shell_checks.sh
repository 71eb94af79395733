# Sourced by the shell tests of test/emulator and test/retarget: a temporary directory removed at exit
# ($tmp), the build directory ($BUILD), and ok/bad lines (bad makes the test
# fail: `exit $fail` at the end).
set -u
BUILD="${BUILD:-build}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }
# runs_clean NAME EXE...: each of $tmp/EXE in work-item loops, as fibers and
# with the race and uninit checks prints "NAME: PASSED" and no report.
runs_clean() {
  local name=$1 exe run; shift
  for exe in "$@"; do
    for run in "" "LDSAN_OPTIONS=emu_fibers=1" "LDSAN_OPTIONS=detect_races=1:detect_uninit=1"; do
      if env $run "$tmp/$exe" >"$tmp/out" 2>"$tmp/err" && grep -q "$name: PASSED" "$tmp/out" &&
         ! grep -qE 'ERROR|WARNING|SUMMARY' "$tmp/err"; then
        ok "$exe: right results, no report ($run)"
      else
        bad "$exe: $run: wrong results or a report"; cat "$tmp/out" "$tmp/err"
      fi
    done
  done
}
