#!/usr/bin/env bash
# ldsan test runner: runs every test listed in test/*.list, each in its own
# process with a timeout, and ends with the line "N passed, N failed, N skipped".
# A list line is:  <name> <command...>   (run from the repository root; '#' starts a comment).
# A test passes on exit 0, is skipped on exit 77, fails otherwise.
# Usage: test/run.sh [name-filter-regex]
set -u
cd "$(dirname "$0")/.."
filter="${1:-.}"
timeout_s="${LDSAN_TEST_TIMEOUT:-300}"
logdir="${BUILD:-build}/test-logs"
mkdir -p "$logdir"
pass=0 fail=0 skip=0 failed_names=()
while IFS= read -r line; do
  line="${line%%#*}"
  [[ -z "${line// }" ]] && continue
  name="${line%% *}"; cmd="${line#* }"
  [[ "$name" =~ $filter ]] || continue
  log="$logdir/${name//\//_}.log"
  start=$(date +%s)
  timeout -k 5 "$timeout_s" bash -c "$cmd" </dev/null >"$log" 2>&1
  rc=$?
  secs=$(( $(date +%s) - start ))
  if [[ $rc -eq 0 ]]; then pass=$((pass+1)); echo "PASS $name (${secs}s)"
  elif [[ $rc -eq 77 ]]; then skip=$((skip+1)); echo "SKIP $name: $(tail -n 1 "$log")"
  else
    fail=$((fail+1)); failed_names+=("$name")
    [[ $rc -eq 124 ]] && echo "FAIL $name (timed out after ${timeout_s}s)" || echo "FAIL $name (exit $rc)"
    sed 's/^/    | /' "$log" | tail -n 40
  fi
done < <(cat test/*.list)
if [[ ${#failed_names[@]} -gt 0 ]]; then echo "failed: ${failed_names[*]}"; fi
echo "$pass passed, $fail failed, $skip skipped"
[[ $fail -eq 0 ]]
