#!/usr/bin/env bash
# Reproducible builds: the retarget tool, run three times on the same device bitcode,
# writes byte-identical IR (--emit-ll) and byte-identical objects. The runs differ in
# where the heap puts things: address-space randomization (each run its own layout)
# and glibc's per-thread cache of freed blocks (GLIBC_TUNABLES=glibc.malloc.tcache_count,
# which changes which freed block an allocation gets back even under setarch -R), so
# output that depends on addresses shows. shadow_ranges.hip's loops check several
# intervals before each loop (retarget_shadow_ranges.cpp: what the expander reuses
# there once depended on the allocator, and so did the object's code);
# frame_recompute.hip is a small program through every step of the tool.
# Usage: test/retarget/reproducible.sh (from the repo root; BUILD= selects the build dir)
. "$(dirname "$0")/../lib/shell_checks.sh"

for prog in test/retarget/shadow_ranges.hip test/retarget/frame_recompute.hip; do
  name=$(basename "$prog" .hip)
  rm -rf "$tmp/keep"; mkdir -p "$tmp/keep"
  if ! LDSAN_EMU_KEEP_TEMPS=1 TMPDIR="$tmp/keep" "$BUILD/bin/ldsan-cc" --emulate -O2 -Itest/emulator "$prog" \
       -o "$tmp/prog" 2>"$tmp/cc.err"; then
    cat "$tmp/cc.err"; bad "$name: ldsan-cc --emulate -O2 $prog"; continue
  fi
  bc=$(find "$tmp/keep" -name "*$name.bc" | head -1)
  if [[ -z "$bc" ]]; then bad "$name: no kept device bitcode (LDSAN_EMU_KEEP_TEMPS=1)"; continue; fi
  cp "$bc" "$tmp/$name.bc"
  rm -rf "$tmp/keep"
  run=0
  for tunables in "" glibc.malloc.tcache_count=0 glibc.malloc.tcache_count=20; do
    run=$((run + 1))
    if ! GLIBC_TUNABLES=$tunables "$BUILD/bin/ldsan-emu-retarget" "$tmp/$name.bc" -o "$tmp/$name.$run.o" \
         --name "$prog" --emit-ll "$tmp/$name.$run.ll" -O2 2>"$tmp/rt.err"; then
      cat "$tmp/rt.err"; bad "$name: run $run of the retarget tool failed"; continue 2
    fi
  done
  for run in 2 3; do
    for ext in ll o; do
      if cmp -s "$tmp/$name.1.$ext" "$tmp/$name.$run.$ext"; then
        ok "$name: run $run's .$ext is run 1's"
      else
        bad "$name: run $run's .$ext differs from run 1's (GLIBC_TUNABLES differ, and the address-space layout)"
        [[ $ext == ll ]] && diff "$tmp/$name.1.ll" "$tmp/$name.$run.ll" | head -8 | cut -c1-160
      fi
    done
  done
done
exit $fail
