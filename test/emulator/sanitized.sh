#!/usr/bin/env bash
# The ASan+UBSan build of the emulator (emulator/asan.mk, $BUILD/asan):
#   1. its archives and drivers are instrumented (they reference ASan/UBSan's runtime);
#   2. LDSAN_EMU_SANITIZED=1 makes `ldsan-cc --emulate` compile through the
#      sanitized drivers and link the sanitized core, HIP layer and host
#      library; without it (or =0) the plain ones;
#   3. a missing sanitized build is one clear error;
#   4. a program with an LDS bug, built so, reports it with work-item loops and
#      with fibers, and host ASan/UBSan find nothing else in the emulator (no
#      warning either: the core announces its fiber switches to ASan, so the
#      trapping work-item's noreturn call is on a stack ASan knows).
# Usage: test/emulator/sanitized.sh (from anywhere)
set -u
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-build}"
san="$BUILD/asan"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
ok() { echo "ok   $*"; }
[[ -f "$san/sanitized" ]] || { echo "$san is missing: run 'make emulator-asan'"; exit 1; }

# 1. Instrumented: undefined references to the sanitizer runtimes.
for f in "$san/lib/libldsan-emu-core.a" "$san/lib/libldsan-emu-hip.a" "$san/lib/libldsan-host.a"; do
  syms=$(nm "$f" 2>/dev/null)
  grep -q ' U __asan_report_' <<<"$syms" && grep -q ' U __ubsan_handle_' <<<"$syms" &&
    ok "$f: ASan+UBSan instrumented" || fail "$f is not ASan+UBSan instrumented"
done
for f in "$san/bin/ldsan-cc" "$san/libexec/ldsan-cc-emulate"; do
  nm "$f" 2>/dev/null | grep -q ' __asan_init' && ok "$f: ASan build" || fail "$f is not an ASan build"
done

# 2. What --emulate runs and links, with and without LDSAN_EMU_SANITIZED.
prog=test/emulator/bug_underflow.hip
build() {  # build <LDSAN_EMU_SANITIZED value> <exe>: the driver's verbose log in <exe>.log
  LDSAN_EMU_SANITIZED="$1" LDSAN_EMU_VERBOSE=1 "$BUILD/bin/ldsan-cc" --emulate -O2 -g -Itest/emulator "$prog" \
    -o "$2" >"$2.log" 2>&1
}
if build 1 "$tmp/san"; then
  link=$(grep -- '--emulate: linking:' "$tmp/san.log")
  for lib in libldsan-emu-hip.a libldsan-emu-core.a libldsan-host.a; do
    [[ "$link" == *" $PWD/$san/lib/$lib "* || "$link" == *" $san/lib/$lib "* ]] && ok "sanitized link uses $san/lib/$lib" ||
      fail "sanitized link does not use $san/lib/$lib: $link"
  done
  grep -q -- "--emulate: compiling the device part of $prog: .*$san/bin/ldsan-cc " "$tmp/san.log" &&
    ok "device part compiled by $san/bin/ldsan-cc" || { fail "device part not compiled by the sanitized ldsan-cc:"; cat "$tmp/san.log"; }
else
  fail "LDSAN_EMU_SANITIZED=1 ldsan-cc --emulate $prog:"; cat "$tmp/san.log"
fi
if build 0 "$tmp/plain"; then
  grep -- '--emulate: linking:' "$tmp/plain.log" | grep -q "/asan/" && fail "LDSAN_EMU_SANITIZED=0 links from $san" ||
    ok "LDSAN_EMU_SANITIZED=0 links the plain build"
else
  fail "LDSAN_EMU_SANITIZED=0 ldsan-cc --emulate $prog:"; cat "$tmp/plain.log"
fi

# 3. No sanitized build: one line saying what to run.
LDSAN_EMU_SANITIZED=1 LDSAN_ROOT="$tmp/none" "$BUILD/bin/ldsan-cc" --emulate "$prog" -o "$tmp/x" >"$tmp/err" 2>&1
[[ $? -ne 0 && $(wc -l <"$tmp/err") -eq 1 ]] && grep -q "run 'make emulator-asan'" "$tmp/err" &&
  ok "missing sanitized build: $(cat "$tmp/err")" || { fail "missing sanitized build message:"; cat "$tmp/err"; }

# 4. The LDS bug is reported, and nothing else by host ASan or UBSan.
if [[ -x "$tmp/san" ]]; then
  for fibers in 0 1; do
    LDSAN_OPTIONS=color=never:emu_fibers=$fibers timeout -k 5 120 "$tmp/san" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    what="fibers=$fibers"
    [[ $rc -eq 1 ]] && grep -qE '^==[0-9]+==ERROR: AddressSanitizer: lds-buffer-underflow ' "$tmp/err" &&
      ok "$what: the LDS underflow is reported (exit 1)" || fail "$what: exit $rc, no lds-buffer-underflow report"
    other=$(grep -E 'runtime error:|ERROR: AddressSanitizer: |ERROR: LeakSanitizer|WARNING: ' "$tmp/err" |
            grep -vE 'ERROR: AddressSanitizer: lds-buffer-underflow ')
    [[ -z "$other" ]] && ok "$what: no other sanitizer message" || { fail "$what: sanitizer messages:"; cat "$tmp/err"; }
  done
fi

[[ $fails -eq 0 ]] && echo "sanitized: all checks passed" || echo "sanitized: $fails check(s) failed"
[[ $fails -eq 0 ]]
