#!/usr/bin/env bash
# docs/options.md is generated from the options table host/flags.inc by
# tools/options_doc.c (make docs). This regenerates it into a temporary file and
# compares it with the committed page, so that a changed option cannot leave the
# reference behind.
set -u
gen=${BUILD:-build}/tools/options_doc
for src in tools/options_doc.c host/flags.inc host/internal.h; do
  if [ ! -x "$gen" ] || [ "$src" -nt "$gen" ]; then
    echo "FAIL: $gen is missing or older than $src; run 'make docs' (or 'make test-programs')" >&2
    exit 1
  fi
done
out=$(mktemp "${TMPDIR:-/tmp}/options.md.XXXXXX")
trap 'rm -f "$out"' EXIT
"$gen" > "$out"
rc=$?
if [ "$rc" -ne 0 ]; then
  echo "FAIL: $gen exited with status $rc; it prints docs/options.md" >&2
  exit 1
fi
if ! diff -u docs/options.md "$out"; then
  echo "FAIL: docs/options.md is out of date with host/flags.inc; run make docs" >&2
  exit 1
fi
echo "ok: docs/options.md matches host/flags.inc"
