#!/usr/bin/env bash
# %run in lit RUN lines (test/lit.cfg.py): runs a test program and prints, for
# FileCheck, in this order:
#   the program's stderr (ldsan's reports)
#   "ldsan-test: stdout:" and the program's stdout
#   "ldsan-test: exit N"        N: its exit status ("timed out" after 120 s, or
#                               LDSAN_RUN_TIMEOUT seconds: a test of a hang sets it short)
# Exits 0: the RUN line's FileCheck decides, from the lines above.
# A program that did not build (make test-programs: test/programs.mk) is not
# run: its build log is printed with "ldsan-test: not built".
# Usage: %run <program> [args...]   (environment as given, e.g. env LDSAN_OPTIONS=...)
set -u
exe="${1:?usage: run.sh <program> [args...]}"
if [[ ! -x "$exe" ]]; then
  echo "ldsan-test: $exe was not built; its build log ($exe.log):"
  cat "$exe.log" 2>/dev/null || echo "(no log: run 'make test-programs')"
  echo "ldsan-test: not built"
  exit 0
fi
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
timeout -k 5 "${LDSAN_RUN_TIMEOUT:-120}" "$@" </dev/null >"$out" 2>"$err"
rc=$?
cat "$err"
echo "ldsan-test: stdout:"
cat "$out"
[[ -s "$out" && -n "$(tail -c 1 "$out")" ]] && echo  # a last line without its newline
if [[ $rc -eq 124 ]]; then echo "ldsan-test: exit timed out"; else echo "ldsan-test: exit $rc"; fi
exit 0
