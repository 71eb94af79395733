#!/usr/bin/env bash
# No product file includes with a path that climbs out of its folder
# ("../"): a file reaches another folder's header through -Iinclude (the ABI
# and the emulator's contracts) or -I. (instrument/ headers), as the Makefile says.
cd "$(dirname "$0")/../.."
hits=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"\.\./' device host include instrument retarget emulator tools)
if [[ -n "$hits" ]]; then
  echo "FAIL: includes that climb out of their folder (use the include paths: -Iinclude, -I.):"
  echo "$hits"
  exit 1
fi
echo "ok   no ../ include in device host include instrument retarget emulator tools"
