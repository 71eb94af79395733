#!/usr/bin/env bash
# ldsan test runner: runs the lit suite over test/ (test/lit.cfg.py: files with
# RUN: lines, and every line of test/*.list), in parallel, each test in its own
# process with a timeout and its own TMPDIR. Writes each test's output to
# $BUILD/test-logs/<name>.log, prints the failures' output and the slowest tests,
# and ends with the line "N passed, N failed, N skipped".
# Usage: test/run.sh [-j N] [--quick] [name-regex]
#   -j N      tests run at once (default: the core count; $LDSAN_TEST_JOBS)
#   --quick   the quick tier only (make check); default: every test
#   regex     only tests whose name matches (e.g. 'emulator/clean_', '^host/')
# $LDSAN_TEST_TIMEOUT: seconds per test (default 300). Needs what 'make all
# test-programs' builds.
set -u
cd "$(dirname "$0")/.."
# Run from `make test` or `make check`, the tests would inherit make's jobserver
# (MAKEFLAGS), and the builds they run (make/ and cmake/ projects) would print
# "jobserver unavailable" warnings, which those tests count as failures.
unset MAKEFLAGS MFLAGS MAKELEVEL
jobs="${LDSAN_TEST_JOBS:-$(nproc)}" tier=full filter=.
while [[ $# -gt 0 ]]; do
  case "$1" in
    -j) jobs="${2:?-j wants a number}"; shift 2 ;;
    -j*) jobs="${1#-j}"; shift ;;
    --quick) tier=quick; shift ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "test/run.sh: unknown option '$1' (see test/run.sh --help)"; echo "0 passed, 1 failed, 0 skipped"; exit 1 ;;
    *) filter="$1"; shift ;;
  esac
done
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "test/run.sh: -j $jobs: want a positive number"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
build="${BUILD:-build}"
lit="${LIT:-lit-${LLVM_VERSION:-22}}"
if ! command -v "$lit" >/dev/null; then
  echo "test/run.sh: $lit not found: run scripts/deps.sh (Debian package llvm-${LLVM_VERSION:-22}-tools)"
  echo "0 passed, 1 failed, 0 skipped"; exit 1
fi
mkdir -p "$build"
# lit matches --filter against "ldsan :: <name>": a pattern anchored at the name's start
# ('^host/') is anchored after that prefix.
[[ "$filter" == ^* ]] && filter="^ldsan :: (?:${filter#^})"
results="$build/test-results.json"
rm -rf "$results" "$build/test-logs"
# lit: one line per test as it ends; the slowest tests start first (it keeps their
# times in $build/test-tmp/lit/.lit_test_times.txt).
"$lit" -j "$jobs" --param build="$build" --param tier="$tier" --filter "$filter" \
  --no-progress-bar --allow-empty-runs -o "$results" test/
python3 test/lib/summary.py "$results" "$build/test-logs"
