#!/usr/bin/env bash
# Work-item loops that check ASan's shadow once per loop (retarget_shadow_ranges.cpp):
# shadow_ranges.hip built with -O2 gets such loops in each of its kernels (the retarget
# tool's LDSAN_EMU_VERBOSE lines, in the kernel and in its LDS checks' copy), and gives
# its host reference's results with no report: in work-item loops, as fibers, and with
# detect_races=1:detect_uninit=1. The same for its LDS-only build (-fsanitize=lds),
# whose loops check ldsan's own shadow once per loop (the shadow offset the device
# state holds, hoisted out of the loops). (bug_range_overrun.hip,
# bug_range_inner_loop.hip and bug_range_reversed.hip check, in both modes, that a
# bad interval still reports the access.)
# Usage: test/retarget/shadow_ranges.sh (from the repo root; BUILD= selects the build dir)
. "$(dirname "$0")/../lib/shell_checks.sh"
prog=test/retarget/shadow_ranges.hip

if ! LDSAN_EMU_VERBOSE=1 "$BUILD/bin/ldsan-cc" --emulate -O2 -Itest/emulator "$prog" -o "$tmp/prog" 2>"$tmp/cc.err"; then
  cat "$tmp/cc.err"; echo "FAIL: ldsan-cc --emulate -O2 $prog"; exit 1
fi
kernels="_Z12stage_reduceILi256EEvPKfPf _Z12stage_reduceILi64EEvPKfPf _Z16reversed_columnsILi128ELi8EEvPKfPf
         _Z17guarded_neighbourILi256EEvPKiPi _Z9wide_copyILi256ELi12EEvPK15HIP_vector_typeIfLj4EEPS1_"
# loops_checked ERRFILE SHADOW LABEL: each kernel's loops (and its LDS checks' copy's) check SHADOW once.
loops_checked() {
  local k copy
  for k in $kernels; do
    for copy in "" "in its LDS checks' copy, "; do
      if grep -F "kernel '$k': $copy" "$1" | grep -qE "': ${copy}[1-9][0-9]* work-item loops check $2 once per loop"; then
        ok "$3$k: ${copy}loops check the shadow once"
      else
        bad "$3$k: ${copy}no loop checks the shadow once"; grep -F "'$k'" "$1"
      fi
    done
  done
}
loops_checked "$tmp/cc.err" "ASan's shadow" ""
if ! LDSAN_EMU_VERBOSE=1 "$BUILD/bin/ldsan-cc" --emulate -O2 -fsanitize=lds -Itest/emulator "$prog" -o "$tmp/prog_lds" \
     2>"$tmp/cc_lds.err"; then
  cat "$tmp/cc_lds.err"; echo "FAIL: ldsan-cc --emulate -O2 -fsanitize=lds $prog"; exit 1
fi
loops_checked "$tmp/cc_lds.err" "ldsan's own shadow \\(LDS-only\\)" "LDS-only: "
# The staging loops of stage_reduce<256> and reverse_stage<char, short, double>
# (buf[t] = in[...]), once their shadow checks and their tests of the LDS block
# pointer are decided before the loop, are plain copies: the cleanup after
# versioning gives them a vector form (in both modes).
# In the LDS checks' copy the staging write is one every work-item makes, whole
# words one after another: its span says so (size 4, kind store | every), so that
# the core notes those words written (core_lds_disjoint.c).
every=$(( 4 | 3 << 32 ))
for mode in "" -fsanitize=lds; do
  label=${mode:+LDS-only: }
  rm -rf "$tmp/keep"; mkdir -p "$tmp/keep"
  if LDSAN_EMU_KEEP_TEMPS=1 TMPDIR="$tmp/keep" "$BUILD/bin/ldsan-cc" --emulate -O2 $mode -Itest/emulator "$prog" \
       -o "$tmp/prog2" 2>/dev/null && bc=$(find "$tmp/keep" -name '*shadow_ranges.bc' | head -1) && [[ -n "$bc" ]] &&
     "$BUILD/bin/ldsan-emu-retarget" "$bc" -o "$tmp/x.o" --emit-ll "$tmp/x.ll" -O2; then
    for kt in _Z12stage_reduceILi256EEvPKfPf:float _Z13reverse_stageIaLi256EEvPKT_PS0_i:i8 \
              _Z13reverse_stageIsLi128EEvPKT_PS0_i:i16 _Z13reverse_stageIdLi256EEvPKT_PS0_i:double; do
      k=${kt%%:*} ty=${kt##*:}
      if awk "/^define .*@__ldsan_emu_group\\.$k\\(/,/^}/" "$tmp/x.ll" | grep -qE "store <[0-9]+ x $ty>"; then
        ok "$label$k: the staging loop has a vector form ($ty)"
      else
        bad "$label$k: no vector store of $ty in its group function"
      fi
    done
    if awk '/^define .*@__ldsan_emu_group_checked\._Z12stage_reduceILi256EEvPKfPf\(/,/^}/' "$tmp/x.ll" |
       grep -q "store i64 $every, "; then
      ok "${label}stage_reduce<256>: the staging write's span is a write of every work-item"
    else
      bad "${label}stage_reduce<256>: no span of a 4-byte write of every work-item in its LDS checks' copy"
    fi
  else
    bad "${label}cannot retarget the kept bitcode of $prog"
  fi
done
runs_clean shadow_ranges prog prog_lds
exit $fail
