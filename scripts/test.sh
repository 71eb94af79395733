#!/usr/bin/env bash
# The whole test suite from a fresh clone: installs missing Debian packages,
# builds ldsan and its tests, runs test/run.sh (last line: "N passed, N failed, N skipped").
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
make -j"$(nproc)" all test-programs >build.log 2>&1 || { tail -n 60 build.log; echo "ldsan: error: build failed (full log: build.log)"; echo "0 passed, 1 failed"; exit 1; }
exec test/run.sh "$@"
