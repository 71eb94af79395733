#!/usr/bin/env python3
# Reads the results lit wrote (lit -o FILE) for test/run.sh: writes each test's
# output to LOGDIR/<name with / as _>.log, prints the end of every failed test's
# output, the slowest tests, and last the line "N passed, N failed, N skipped".
# Exit status: 0 when nothing failed (and at least one test ran), 1 otherwise.
# Usage: summary.py RESULTS.json LOGDIR [SLOWEST=10]
import json
import os
import sys

PASSED = {"PASS", "XFAIL", "FLAKYPASS"}
SKIPPED = {"UNSUPPORTED", "SKIPPED", "EXCLUDED"}


def short_name(full):
    """'ldsan :: emulator/x' -> 'emulator/x'."""
    return full.split(" :: ", 1)[-1]


def main():
    results_path, logdir = sys.argv[1], sys.argv[2]
    slowest = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    try:
        with open(results_path, encoding="utf-8") as f:
            tests = json.load(f)["tests"]
    except (OSError, ValueError, KeyError) as e:
        print("ldsan-test: error: lit wrote no results to %s (%s): no test matched the name pattern, "
              "or lit stopped (its output is above)" % (results_path, e))
        print("0 passed, 1 failed, 0 skipped")
        return 1
    os.makedirs(logdir, exist_ok=True)
    passed, failed, skipped = [], [], []
    for t in tests:
        name = short_name(t["name"])
        with open(os.path.join(logdir, name.replace("/", "_") + ".log"), "w", encoding="utf-8") as log:
            log.write(t.get("output") or "")
        code = t["code"]
        (passed if code in PASSED else skipped if code in SKIPPED else failed).append(t)
    for t in failed:
        lines = (t.get("output") or "").rstrip("\n").split("\n")
        print("FAIL %s (%s, %.0f s):" % (short_name(t["name"]), t["code"], t.get("elapsed") or 0))
        for line in lines[-40:]:
            print("    | " + line)
    timed = sorted((t for t in tests if t.get("elapsed") is not None), key=lambda t: -t["elapsed"])
    if timed and slowest > 0:
        print("slowest tests:")
        for t in timed[:slowest]:
            print("  %6.1f s  %s" % (t["elapsed"], short_name(t["name"])))
    if failed:
        print("failed: " + " ".join(short_name(t["name"]) for t in failed))
    print("logs: %s/" % logdir.rstrip("/"))
    if not tests:
        print("ldsan-test: error: no test matched")
        print("0 passed, 1 failed, 0 skipped")
        return 1
    print("%d passed, %d failed, %d skipped" % (len(passed), len(failed), len(skipped)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
