#!/usr/bin/env bash
# The LDS checks decided once per work-item loop (retarget_lds_disjoint.cpp,
# core_lds_disjoint.c) on race_disjoint_loops.hip at -O2: the fixed kernels'
# loops are described to the core (LDSAN_EMU_VERBOSE counts them), report
# nothing with detect_races and detect_uninit, and compute the right values
# (the tree's levels read what its staging loop wrote on the fast path: with
# that write not kept, they report uninitialized reads); each planted bug,
# in a loop decided once too, is still reported with both lines and
# work-items, so the core said no where it had to.
# Usage: test/retarget/race_disjoint_loops.sh (from the repo root; BUILD= selects the build dir)
. "$(dirname "$0")/../lib/shell_checks.sh"
prog=test/retarget/race_disjoint_loops.hip
line() { grep -n "// $1\$" "$prog" | cut -d: -f1; }

if ! LDSAN_EMU_VERBOSE=1 "$BUILD/bin/ldsan-cc" --emulate -O2 -Itest/emulator "$prog" -o "$tmp/prog" 2>"$tmp/cc.err"; then
  cat "$tmp/cc.err"; echo "FAIL: ldsan-cc --emulate $prog"; exit 1
fi
# Loops decided once: the staging loop and the 8 levels of the tree, and at
# least one loop of every other kernel (the racy ones' races are in such
# loops: with a core that always says yes, none of them is reported).
decided() {  # decided <mangled kernel>: its count, or nothing
  grep -F "kernel '$1': in its LDS checks' copy," "$tmp/cc.err" |
    sed -nE 's/.*copy, ([0-9]+) work-item loops skip the checks.*/\1/p'
}
n=$(decided _Z4treePKfPf)
[[ "$n" == 9 ]] && ok "tree: 9 loops decided once" || bad "tree: '$n' loops decided once, expected 9"
# All 9 bare (every write one each work-item makes, of whole words: the core
# keeps them), so that with the LDS checks on they vectorize like the
# unchecked loops: float vector loads and stores in the checked group function.
n=$(grep -F "kernel '_Z4treePKfPf': in its LDS checks' copy," "$tmp/cc.err" | sed -nE 's/.*; ([0-9]+) of them bare.*/\1/p')
[[ "$n" == 9 ]] && ok "tree: 9 bare loops" || bad "tree: '$n' bare loops, expected 9"
mkdir -p "$tmp/keep"
if LDSAN_EMU_KEEP_TEMPS=1 TMPDIR="$tmp/keep" "$BUILD/bin/ldsan-cc" --emulate -O2 -Itest/emulator "$prog" -o "$tmp/prog2" \
     2>/dev/null && bc=$(find "$tmp/keep" -name '*race_disjoint_loops.bc' | head -1) && [[ -n "$bc" ]] &&
   "$BUILD/bin/ldsan-emu-retarget" "$bc" -o "$tmp/x.o" --emit-ll "$tmp/x.ll" -O2; then
  awk '/^define .*@__ldsan_emu_group_checked\._Z4treePKfPf\(/,/^}/' "$tmp/x.ll" >"$tmp/tree.ll"
  [[ $(grep -cE "store <[0-9]+ x float>" "$tmp/tree.ll") -ge 2 ]] &&
    ok "tree: the checked copy's bare loops have a vector form" ||
    bad "tree: fewer than 2 float vector stores in the checked group function"
  ! grep -q "__ldsan_emu_lds_disjoint(.*, ptr null)" "$tmp/tree.ll" &&
    ok "tree: every decision passes its first work-item" || bad "tree: a decision without its first work-item"
else
  bad "could not retarget race_disjoint_loops.hip's device code"
fi
for k in _Z5shiftILb{0,1}EEvPKfPf _Z4pairILb{0,1}EEvPKfPf _Z4haloILb{0,1}EEvPKfPf _Z6windowILb{0,1}EEvPKfPfi \
         _Z6mirrorILb{0,1}EEvPKfPf; do
  n=$(decided "$k")
  [[ -n "$n" && "$n" -gt 0 ]] && ok "$k: $n loops decided once" || bad "$k: no loop decided once"
done

LDSAN_OPTIONS=detect_races=1:detect_uninit=1 "$tmp/prog" fixed >"$tmp/out" 2>"$tmp/err"
rc=$?
[[ $rc -eq 0 && ! -s "$tmp/err" ]] && grep -q "race_disjoint_loops: PASSED" "$tmp/out" &&
  ok "fixed kernels: no report, the right values" || { bad "fixed kernels: exit $rc"; head -30 "$tmp/err"; }

LDSAN_OPTIONS=detect_races=1:detect_uninit=1:halt_on_error=0:color=never "$tmp/prog" >"$tmp/out" 2>"$tmp/err"
# found <kind> <kernel> <params> <headline tail> <line mark> [previous line mark]:
# the report's headline and SUMMARY (with both source lines) are there.
found() {
  local kind=$1 kernel=$2 params=$3 tail=$4 prev=""
  grep -qF "ERROR: AddressSanitizer: $kind in kernel void $kernel($params)$tail" "$tmp/err" || return 1
  [[ $# -gt 5 ]] && prev=" \\(previous access at $prog:$(line "$6"):[0-9]+\\)"
  grep -qE "^SUMMARY: AddressSanitizer: $kind $prog:$(line "$5"):[0-9]+ in void $kernel\\($(sed 's/[*()]/\\&/g' <<<"$params")\\)$prev\$" \
    "$tmp/err"
}
race="lds-data-race" fp="float const*, float*"
found $race "shift<false>" "$fp" ": write-after-read by work-items (64,0,0) and (63,0,0)" shift-write shift-read &&
  ok "shift<false>: the write races with the left neighbour's read" || bad "shift<false>: no write-after-read of shift-write and shift-read"
found $race "pair<false>" "$fp" ": write-after-write by work-items (64,0,0) and (63,0,0)" pair-first pair-second &&
  ok "pair<false>: the first write races with the left neighbour's second" || bad "pair<false>: no write-after-write of pair-first and pair-second"
found lds-uninitialized-read "halo<false>" "$fp" "" halo-read &&
  ok "halo<false>: the second half's reads are uninitialized" || bad "halo<false>: no lds-uninitialized-read at halo-read"
found $race "window<false>" "$fp, int" ": write-after-write by work-items (64,0,0) and (63,0,0)" window-write window-write &&
  ok "window<false>: overlapping windows of two waves race" || bad "window<false>: no write-after-write at window-write"
found $race "mirror<false>" "$fp" ": write-after-read by work-items (128,0,0) and (127,0,0)" mirror-write mirror-read &&
  ok "mirror<false>: the write races with the mirrored read" || bad "mirror<false>: no write-after-read of mirror-write and mirror-read"
n=$(grep -c "^SUMMARY: AddressSanitizer: lds-" "$tmp/err")
[[ $n -eq 6 ]] && ok "6 error reports" || bad "$n error reports, expected 6"
[[ $fail -eq 0 ]] || sed 's/^/    | /' "$tmp/err" | head -40
exit $fail
