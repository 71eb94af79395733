#!/usr/bin/env bash
# Runs one libFuzzer target of test/fuzz for test/run.sh (test/fuzz.list): a
# fixed seed and number of inputs, starting from the committed seed corpus
# test/fuzz/corpus/<target>/ (only read: new inputs go to a scratch directory).
# Fails on a crash, a sanitizer report, a failed PROPERTY, an input slower than
# 10 s, or when the fuzzer did not run every input; the failing input is left
# in $BUILD/test-tmp/fuzz/<target>/ and the line to reproduce it is printed.
# In the quick tier (LDSAN_TEST_TIER=quick: make check) a tenth of the inputs: a smoke test.
# Usage: test/fuzz/run.sh <target> <runs> [more libFuzzer flags]   (from the repo root)
set -uo pipefail
target="${1:?usage: run.sh <target> <runs>}" runs="${2:?usage: run.sh <target> <runs>}"
shift 2
[[ "${LDSAN_TEST_TIER:-full}" == quick ]] && runs=$(( (runs + 9) / 10 ))
build="${BUILD:-build}"
bin="$build/test/fuzz/$target" corpus="test/fuzz/corpus/$target" work="$build/test-tmp/fuzz/$target"
[[ -x "$bin" ]] || { echo "$bin is missing: run 'make fuzz-targets'"; exit 1; }
[[ -n "$(ls -A "$corpus" 2>/dev/null)" ]] || { echo "no seed corpus in $corpus"; exit 1; }
rm -rf "$work" && mkdir -p "$work/new"
"$bin" -seed=1 -runs="$runs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$work/" "$@" "$work/new" "$corpus" >"$work/log" 2>&1
rc=$?
tail -n 25 "$work/log"
artifacts=$(find "$work" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'slow-unit-*' \))
if [[ $rc -ne 0 || -n "$artifacts" ]]; then
  echo "FAIL: $target (exit $rc); full log: $work/log"
  for a in $artifacts; do echo "reproduce: $bin $a"; done
  exit 1
fi
done_runs=$(sed -nE 's/^Done ([0-9]+) runs.*/\1/p' "$work/log")
[[ "$done_runs" == "$runs" ]] || { echo "FAIL: $target ran ${done_runs:-no} inputs, not $runs"; exit 1; }
echo "ok: $target ran $runs inputs"
