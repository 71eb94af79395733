#!/usr/bin/env bash
# Builds one test program in one mode for the lit tests (test/programs.mk runs
# it; RUN lines name the result %{exe} or %{exe:MODE}, test/lit.cfg.py):
#   build_program.sh <mode> <test/dir/x.hip> <build>/test/programs/<mode>/dir/x
# with `ldsan-cc --emulate`, the mode's flags, then the program's own
# "// CFLAGS:" line, and -I<dir of x.hip>. The compile's output (with
# LDSAN_EMU_VERBOSE=1: the commands, and which kernels got work-item loops) goes
# to <output>.log. A build that fails leaves no program, says so in one line
# and exits 0, so that make builds the others: the program's tests then fail,
# printing the log (test/lib/run.sh).
# A mode is "full" or words joined by '+', each adding to the base flags -O2:
#   lds-only   -fsanitize=lds: ldsan's LDS checks only, no AddressSanitizer
#   wave32     --offload-arch=gfx1100: an RDNA target, waves of 32 lanes
#   checks     -fsanitize-lds=races,uninit: the GPU's race and uninitialized-read checks compiled in
#   O0         -O0: unoptimized
#   sanitized  linked with the emulator core, HIP layer and host library built with
#              ASan+UBSan (LDSAN_EMU_SANITIZED=1, emulator/asan.mk)
# e.g. lds-only+wave32 or checks+O0.
set -u
mode="${1:?usage: build_program.sh <mode> <source.hip> <output>}" src="${2:?}" out="${3:?}"
build="${BUILD:-build}"
flags=(-O2)
IFS=+ read -r -a words <<<"$mode"
[[ "$mode" == full ]] && words=()
for w in ${words[@]+"${words[@]}"}; do
  case "$w" in
    lds-only) flags+=(-fsanitize=lds) ;;
    wave32) flags+=(--offload-arch=gfx1100) ;;
    checks) flags+=(-fsanitize-lds=races,uninit) ;;
    O0) flags+=(-O0) ;;
    sanitized) export LDSAN_EMU_SANITIZED=1 ;;
    *) echo "build_program.sh: unknown word '$w' in mode '$mode' (a RUN line's %{exe:$mode}; see test/lib/build_program.sh)" >&2; exit 1 ;;
  esac
done
read -r -a cflags <<<"$(sed -n 's|^[[:space:]]*// CFLAGS:[[:space:]]*||p' "$src" | tail -n 1)"
mkdir -p "$(dirname "$out")"
rm -f "$out"
if ! LDSAN_EMU_VERBOSE=1 "$build/bin/ldsan-cc" --emulate "${flags[@]}" ${cflags[@]+"${cflags[@]}"} \
     -I"$(dirname "$src")" "$src" -o "$out" >"$out.log" 2>&1; then
  rm -f "$out"
  echo "ldsan: note: test program $src did not build in mode $mode; its tests will fail (log: $out.log)" >&2
fi
exit 0
