#!/usr/bin/env bash
# The ldsan demo (README's main command): builds ldsan, compiles a HIP program
# with an LDS bug (examples/lds_overflow.hip) for the CPU emulator with
# `ldsan-cc --emulate`, runs it, and shows ldsan's report. No GPU needed.
# Exits 0 when the report names the bug, the variable and the work-item.
set -u
cd "$(dirname "$0")/.."
BUILD="${BUILD:-build}"
if [[ -t 1 ]]; then say() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
else say() { printf '\n==> %s\n' "$*"; }; fi

say "scripts/deps.sh (installing missing Debian packages)"
scripts/deps.sh || { echo "demo: installing dependencies failed"; exit 1; }

say "make (building ldsan)"
make -s BUILD="$BUILD" all || { echo "demo: make failed"; exit 1; }

say "$BUILD/bin/ldsan-cc --emulate -O2 -g examples/lds_overflow.hip -o $BUILD/lds_overflow"
"$BUILD/bin/ldsan-cc" --emulate -O2 -g examples/lds_overflow.hip -o "$BUILD/lds_overflow" ||
  { echo "demo: compiling examples/lds_overflow.hip failed"; exit 1; }

say "$BUILD/lds_overflow"
log="$BUILD/lds_overflow.log"
"$BUILD/lds_overflow" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}

say "result"
ok=1
grep -q "ERROR: AddressSanitizer: lds-buffer-overflow" "$log" || { echo "missing: lds-buffer-overflow headline"; ok=0; }
grep -qE "thread \(work-item\) \(256,0,0\)" "$log" || { echo "missing: work-item (256,0,0)"; ok=0; }
grep -q "'partial'" "$log" || { echo "missing: the LDS variable 'partial'"; ok=0; }
[[ $rc -ne 0 ]] || { echo "the program exited 0; a report should stop it"; ok=0; }
if [[ $ok -eq 1 ]]; then
  echo "demo: ldsan caught the LDS overflow (program exit status $rc)"
  exit 0
fi
echo "demo: the expected report did not appear"
exit 1
