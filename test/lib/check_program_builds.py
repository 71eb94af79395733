#!/usr/bin/env python3
# What every emulator test program that make built (test/programs.mk) must show,
# in each of its modes (test/emulator/program_builds.test runs it):
#  - every kernel got work-item loops, except the kernels its source names in a
#    "// FIBERS: <mangled kernel name>" line: they must run as fibers (the
#    retarget tool prints which and why in the build log, LDSAN_EMU_VERBOSE=1);
#  - a program built in an LDS-only mode (lds-only*) links no AddressSanitizer
#    runtime and has no host code instrumented for it.
# Prints one line per program and mode checked, a FAIL line for each violation.
# Exit status 1 on a violation, or when no program was found.
# Usage: check_program_builds.py <build>/test/programs <repo>/test
import os
import re
import subprocess
import sys

FIBERS = re.compile(r"^ldsan-emu-retarget: kernel '([^']*)': fibers(, waves in lockstep)?, because")


def declared_fibers(source):
    with open(source, encoding="utf-8", errors="replace") as f:
        return sorted(m.group(1) for m in (re.match(r"^\s*// FIBERS:\s*(\S+)\s*$", l) for l in f) if m)


def links_asan(exe):
    """True when exe defines __asan_init or needs libasan."""
    nm = subprocess.run(["nm", exe], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    if re.search(r" [TDB] __asan_init$", nm, re.M):
        return True
    ldd = subprocess.run(["ldd", exe], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    return "libasan" in ldd


def main():
    programs, tests = sys.argv[1], sys.argv[2]
    failed = checked = 0
    for mode in sorted(os.listdir(programs)):
        for root, _, files in os.walk(os.path.join(programs, mode)):
            for log in sorted(f for f in files if f.endswith(".log")):
                exe = os.path.join(root, log[: -len(".log")])
                rel = os.path.relpath(exe, os.path.join(programs, mode))
                source = os.path.join(tests, rel + ".hip")
                if not os.path.exists(exe) or not os.path.exists(source):
                    continue  # did not build (its own test says so), or a source since removed
                checked += 1
                with open(os.path.join(root, log), encoding="utf-8", errors="replace") as f:
                    got = sorted(m.group(1) for m in (FIBERS.match(l) for l in f) if m)
                want = declared_fibers(source)
                if got != want:
                    failed += 1
                    print("FAIL %s (%s): kernels on fibers: %s; the source names: %s (see %s)"
                          % (rel, mode, " ".join(got) or "none", " ".join(want) or "none", os.path.join(root, log)))
                if mode.startswith("lds-only") and links_asan(exe):
                    failed += 1
                    print("FAIL %s (%s): an LDS-only build links AddressSanitizer's runtime" % (rel, mode))
                print("ok   %s (%s)" % (rel, mode))
    if not checked:
        print("FAIL no test program found under %s: run 'make test-programs'" % programs)
        return 1
    print("%d programs checked, %d violations" % (checked, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
