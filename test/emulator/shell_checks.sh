# Sourced by the emulator's shell tests: a temporary directory removed at exit
# ($tmp), the build directory ($BUILD), and ok/bad lines (bad makes the test
# fail: `exit $fail` at the end).
set -u
BUILD="${BUILD:-build}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }
