#!/usr/bin/env bash
# ldsan-cc on bad input: one clear line saying what is wrong and how to fix it,
# and a non-zero exit. Usage: bad_input.sh <case>
set -uo pipefail
source "$(dirname "$0")/driver_lib.sh"
echo '__global__ void k(int *p) { p[0] = 1; }' > "$tmp/k.hip"
expect() { # expect <regex> <command...>
  local re="$1"; shift
  "$@" >"$tmp/out" 2>&1; local rc=$?
  [[ $rc -ne 0 ]] || { echo "expected a non-zero exit from: $*"; cat "$tmp/out"; exit 1; }
  [[ $(wc -l <"$tmp/out") -eq 1 ]] || { echo "expected exactly one line, got:"; cat "$tmp/out"; exit 1; }
  grep -Eq "$re" "$tmp/out" || { echo "expected /$re/, got:"; cat "$tmp/out"; exit 1; }
  echo "ok: $(cat "$tmp/out")"
}
case "$1" in
  no-input)      expect '^ldsan-cc: error: no input files; usage: ldsan-cc app.hip -o app' "$cc" -O2 ;;
  no-xnack)      expect "^ldsan-cc: error: offload arch 'gfx90a' is not xnack\+.*use --offload-arch=gfx90a:xnack\+" "$cc" --offload-arch=gfx90a "$tmp/k.hip" ;;
  rdna-no-lds-only) expect "^ldsan-cc: error: offload arch 'gfx1100' has no xnack\+ mode.*use -fsanitize=lds" "$cc" --offload-arch=gfx1100 "$tmp/k.hip" ;;
  xnack-minus)   expect "^ldsan-cc: error: offload arch 'gfx942:xnack-' is not xnack\+.*use --offload-arch=gfx942:xnack\+" "$cc" --offload-arch gfx942:xnack- "$tmp/k.hip" ;;
  no-clang)      expect "^ldsan-cc: error: 'clang-does-not-exist' not found; run 'make deps'" env LDSAN_CLANG=clang-does-not-exist "$cc" "$tmp/k.hip" ;;
  no-build)      expect "^ldsan-cc: error: the ldsan plugin '$tmp/none/lib/ldsan-instrument.so' is missing; run 'make'" env LDSAN_ROOT="$tmp/none" "$cc" "$tmp/k.hip" ;;
  no-emulator)   expect "^ldsan-cc: error: the CPU emulator driver '$tmp/none/libexec/ldsan-cc-emulate' is missing; run 'make'" env LDSAN_ROOT="$tmp/none" "$cc" --emulate "$tmp/k.hip" ;;
  unknown-option)  # clang's error alone: clang reads no config file then, yet finds the device libraries
    expect "^clang[^ ]*: error: unknown argument: '--frobnicate'\$" "$cc" --frobnicate "$tmp/k.hip" -o "$tmp/app"
    expect "^clang[^ ]*: error: unknown argument: '-fno-such-flag'\$" "$cc" -c -fno-such-flag "$tmp/k.hip" -o "$tmp/k.o" ;;
  output-is-input)  # -o naming an input is refused, with the file untouched (gcc refuses it too):
                    # the same name, another name of the same file, for a GPU build, -c and --emulate
    cp "$tmp/k.hip" "$tmp/keep.hip"; ln -s k.hip "$tmp/alias.hip"
    expect "^ldsan-cc: error: -o '$tmp/k.hip' names the input '$tmp/k.hip': the build would overwrite it" "$cc" "$tmp/k.hip" -o "$tmp/k.hip"
    expect "^ldsan-cc: error: -o '$tmp/alias.hip' names the input '$tmp/k.hip'" "$cc" -c "$tmp/k.hip" -o "$tmp/alias.hip"
    expect "^ldsan-cc: error: -o '$tmp/k.hip' names the input '$tmp/k.hip'" "$cc" --emulate "$tmp/k.hip" -o"$tmp/k.hip"
    cmp -s "$tmp/k.hip" "$tmp/keep.hip" || { echo "the input was changed"; exit 1; } ;;
  emulate-unknown-arch)  # a processor clang does not know is refused, as clang refuses it on a GPU build
    expect "^ldsan-cc --emulate: error: unsupported HIP gpu architecture 'bogus' \\(--offload-arch=bogus\\): clang knows no such AMD GPU processor; the emulator runs device code for [^;]*gfx90a[^;]* as they are, and for other processors clang knows as gfx90a:xnack\\+; give one of them" \
      "$cc" --emulate --offload-arch=bogus "$tmp/k.hip" -o "$tmp/app"
    expect "^ldsan-cc --emulate: error: unsupported HIP gpu architecture 'gfx999' \\(--offload-arch=gfx999:xnack\\+\\):.* for [^;]*gfx1100[^;]* as they are" \
      "$cc" --emulate -fsanitize=lds --offload-arch gfx999:xnack+ "$tmp/k.hip" -o "$tmp/app"
    [[ ! -e "$tmp/app" ]] || { echo "an executable was built for an unknown processor"; exit 1; } ;;
  emulate-dir)   mkdir -p "$tmp/srcdir"
                 expect "^ldsan-cc --emulate: error: input '$tmp/srcdir' is a directory; give the source and object files in it" \
                   "$cc" --emulate "$tmp/srcdir" -o "$tmp/app" ;;
  emulate-interrupt)  # Ctrl-C during a step: the driver removes its temporaries and dies of SIGINT.
    mkdir -p "$tmp/t"
    printf '#!/bin/sh\nexec sleep 5\n' >"$tmp/slow-cc"; chmod +x "$tmp/slow-cc"
    TMPDIR="$tmp/t" LDSAN_CC="$tmp/slow-cc" LDSAN_ROOT="$build" timeout -s INT 1 "$build/libexec/ldsan-cc-emulate" \
      "$tmp/k.hip" -o "$tmp/app" >"$tmp/out" 2>&1; rc=$?
    [[ $rc -eq 124 || $rc -eq 130 ]] || { echo "expected the driver to die of SIGINT (rc $rc)"; cat "$tmp/out"; exit 1; }
    left="$(ls -A "$tmp/t")"
    [[ -z "$left" ]] || { echo "temporaries left after SIGINT: $left"; exit 1; }
    echo "ok: interrupted --emulate left no temporary directory" ;;
  *) echo "unknown case $1"; exit 2 ;;
esac
