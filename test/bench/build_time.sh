#!/usr/bin/env bash
# make bench: the CPU time (user + system, the compiler's child processes
# included) of an `ldsan-cc --emulate -O2 -c` build against the GPU build of
# the same program (`ldsan-cc --offload-arch=gfx90a:xnack+ -O2 -c`), on the
# mid-size programs of test/bench/programs (a Needleman-Wunsch with
# __shared__ tiles, a Blelloch scan, a separable convolution), issue 37's
# goal: at most 3x. Interleaved pairs (GPU build, then --emulate build), so
# both sides meet the same load; min/median/max over the pairs, and the
# machine's load average before and after. LDSAN_EMU_TIME=1 ldsan-cc
# --emulate ... says where an --emulate build spends its time.
#   BENCH_BUILD_ROUNDS (default 3): pairs per program; BUILD: the build to time.
# Not a test.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-build}"
cc="$BUILD/bin/ldsan-cc"
rounds="${BENCH_BUILD_ROUNDS:-3}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
programs=(nw scan sepconv)

# cpu <out> <command...>: runs the command, prints its user + system seconds.
cpu() {
  local t="$tmp/time"
  if ! /usr/bin/time -f '%U %S' -o "$t" "$@" >"$tmp/out" 2>&1; then
    cat "$tmp/out" >&2
    echo "build_time.sh: '$*' failed" >&2
    exit 1
  fi
  awk '{ printf "%.2f\n", $1 + $2 }' "$t"
}
# stats <numbers...>: "min median max"
stats() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
  m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
  printf "%.2f %.2f %.2f", v[1], m, v[NR] }'; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "Build time: ldsan-cc --emulate -O2 -c against ldsan-cc --offload-arch=gfx90a:xnack+ -O2 -c, CPU seconds"
echo "(user + system; $rounds interleaved pairs per program; $(nproc) cores, load average $load_before before)"
printf '  %-9s %5s  %-20s  %-20s  %-20s\n' program lines "GPU min/med/max" "emulate min/med/max" "ratio min/med/max"
worst=0
for p in "${programs[@]}"; do
  src="test/bench/programs/$p.hip"
  gpu=() emu=() ratio=()
  for ((r = 0; r < rounds; r++)); do
    g=$(cpu "$cc" --offload-arch=gfx90a:xnack+ -O2 -c "$src" -o "$tmp/$p.gpu.o")
    e=$(cpu "$cc" --emulate -O2 -c "$src" -o "$tmp/$p.emu.o")
    gpu+=("$g") emu+=("$e") ratio+=("$(awk -v e="$e" -v g="$g" 'BEGIN { printf "%.2f", e / g }')")
  done
  read -r gmin gmed gmax <<<"$(stats "${gpu[@]}")"
  read -r emin emed emax <<<"$(stats "${emu[@]}")"
  read -r rmin rmed rmax <<<"$(stats "${ratio[@]}")"
  printf '  %-9s %5d  %6.2f %6.2f %6.2f  %6.2f %6.2f %6.2f  %5.2fx %5.2fx %5.2fx\n' "$p" "$(wc -l <"$src")" \
    "$gmin" "$gmed" "$gmax" "$emin" "$emed" "$emax" "$rmin" "$rmed" "$rmax"
  worst=$(awk -v a="$worst" -v b="$rmed" 'BEGIN { print (b > a) ? b : a }')
done
echo "  largest median ratio: ${worst}x (goal <= 3x); load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
