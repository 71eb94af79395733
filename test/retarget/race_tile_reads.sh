#!/usr/bin/env bash
# The LDS checks on tile reads shared by work-items (race_tile_reads.hip: a
# tiled SGEMM in 16 x 16 workgroups) at -O2: the clean kernel's compute loop,
# whose work-items read rows and columns of the tiles that others read too,
# is decided once (retarget_lds_disjoint.cpp: a copy of the workgroup's
# work-item loop, not only of the one-dimensional twin) and reports nothing
# with detect_races and detect_uninit; a write into a tile in that phase is
# still a write-after-read between waves, and a read of a tile element no
# work-item wrote is still an uninitialized read, in every workgroup (the
# first one runs the checked loop anyway: its barriers' pcs are not known
# yet), so the core said no where it had to.
# Usage: test/retarget/race_tile_reads.sh (from the repo root; BUILD= selects the build dir)
. "$(dirname "$0")/../lib/shell_checks.sh"
prog=test/retarget/race_tile_reads.hip
line() { grep -n "// $1\$" "$prog" | cut -d: -f1; }

mkdir -p "$tmp/keep"
if ! LDSAN_EMU_KEEP_TEMPS=1 TMPDIR="$tmp/keep" "$BUILD/bin/ldsan-cc" --emulate -O2 -Itest/emulator "$prog" -o "$tmp/prog" \
     2>"$tmp/cc.err"; then
  cat "$tmp/cc.err"; echo "FAIL: ldsan-cc --emulate $prog"; exit 1
fi
clean=_Z11tiled_sgemmILi16EL5Plant0EEvPKfS2_Pfi
if bc=$(find "$tmp/keep" -name '*race_tile_reads.bc' | head -1) && [[ -n "$bc" ]] &&
   "$BUILD/bin/ldsan-emu-retarget" "$bc" -o "$tmp/x.o" --emit-ll "$tmp/x.ll" -O2; then
  awk "/^define .*@__ldsan_emu_group_checked\\.$clean\\(/,/^}/" "$tmp/x.ll" >"$tmp/clean.ll"
  # rN.all: the loop over a whole workgroup of any shape (rN.all.1d: its
  # twin for one-dimensional workgroups, which a 16 x 16 launch never runs).
  grep -qE "^r[0-9]+\\.all\\.check\\.disjoint:" "$tmp/clean.ll" &&
    ok "clean: a loop of the 16 x 16 workgroup is decided once" ||
    bad "clean: no loop of the two-dimensional workgroup decided once (rN.all.check.disjoint)"
else
  bad "could not retarget race_tile_reads.hip's device code"
fi

LDSAN_OPTIONS=detect_races=1:detect_uninit=1 "$tmp/prog" fixed >"$tmp/out" 2>"$tmp/err"
rc=$?
[[ $rc -eq 0 && ! -s "$tmp/err" ]] && grep -q "race_tile_reads: PASSED" "$tmp/out" &&
  ok "clean: no report, the right values" || { bad "clean: exit $rc"; head -30 "$tmp/err"; }

LDSAN_OPTIONS=detect_races=1:detect_uninit=1:halt_on_error=0:color=never "$tmp/prog" >"$tmp/out" 2>"$tmp/err"
params="\\(float const\\*, float const\\*, float\\*, int\\)"
grep -qF "ERROR: AddressSanitizer: lds-data-race in kernel void tiled_sgemm<16, (Plant)1>(float const*, float const*, float*, int): write-after-read by work-items (0,15,0) and (0,0,0)" "$tmp/err" &&
  grep -qE "^SUMMARY: AddressSanitizer: lds-data-race $prog:$(line late-write):[0-9]+ in void tiled_sgemm<16, \\(Plant\\)1>$params \\(previous access at $prog:$(line tile-reads):[0-9]+\\)\$" "$tmp/err" &&
  grep -qF "255 more work-items (15 in this workgroup, 240 in 15 other workgroups) made the same lds-data-race" "$tmp/err" &&
  ok "late_write: the write into Bs races with another wave's read of it, in all 16 workgroups" ||
  bad "late_write: no write-after-read of late-write and tile-reads"
grep -qF "ERROR: AddressSanitizer: lds-uninitialized-read in kernel void tiled_sgemm<16, (Plant)2>(float const*, float const*, float*, int)" "$tmp/err" &&
  grep -qE "^SUMMARY: AddressSanitizer: lds-uninitialized-read $prog:$(line tile-reads):[0-9]+ in void tiled_sgemm<16, \\(Plant\\)2>$params\$" "$tmp/err" &&
  grep -qF "4095 more work-items (255 in this workgroup, 3840 in 15 other workgroups) made the same lds-uninitialized-read" "$tmp/err" &&
  ok "short_load: the read of the column no work-item wrote is uninitialized, in all 16 workgroups" ||
  bad "short_load: no lds-uninitialized-read at tile-reads"
n=$(grep -c "^SUMMARY: AddressSanitizer: lds-" "$tmp/err")
[[ $n -eq 2 ]] && ok "2 error reports" || bad "$n error reports, expected 2"
[[ $fail -eq 0 ]] || grep "^SUMMARY\|ERROR:" "$tmp/err" || sed 's/^/    | /' "$tmp/err" | head -40
exit $fail
