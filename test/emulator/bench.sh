#!/usr/bin/env bash
# make bench: emulated (ldsan-sanitized, CPU emulator) vs. native time of a
# 1M-element reduction (4096 workgroups x 256 work-items), printed as a ratio
# (goal: 5x or less against the kernel body compiled natively, issue 37); then what one
# workgroup's LDS costs on the emulator (bench_blocks.hip: the same tiny kernel
# through a __shared__ array and through registers); then how the time scales
# with workgroups, work-items per group and LDS per group, and the share of it
# that a workgroup of that shape costs without the kernel's work
# (bench_scaling.hip); then what running a kernel's waves in lockstep costs
# (bench_wave.hip: the reduction through an LDS tree and through shuffles);
# then an LDS bandwidth loop that must stay out of lockstep, and its twin with
# 65 barriers that must stay in work-item loops (bench_lds_swap.hip);
# then what the LDS race and uninitialized-read checks cost (the reduction
# with LDSAN_OPTIONS=detect_races=1:detect_uninit=1 against bounds checks only,
# and a tiled SGEMM whose work-items read tiles other work-items read too,
# bench_matmul.hip: each as the ratio of interleaved runs, min/median/max over
# rounds); the reduction also on one worker thread (emu_threads=1: the cost per
# core, which another program's load on the machine moves less than the
# default's every core); then the LDS-only mode (-fsanitize=lds) against full ASan (the
# reduction, its own side of the interleaved rounds: the ratio of each round's
# bests, min/median/max). BENCH_ROUNDS sets the number of interleaved rounds
# (default 5).
# Not a test.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-build}"
CLANG="${CLANG:-clang-22}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# value KEY [FILE]: the number after "KEY " in a benchmark's output (stdin without FILE).
value() { awk -v k="$1" '$1 == k {print $2}' "${2:--}"; }
# spread FILE: "min X, median X, max X" of the numbers in FILE, one a line.
spread() { sort -g "$1" | awk '{ v[NR] = $1 } END { printf "min %.2f, median %.2f, max %.2f", v[1], v[int((NR + 1) / 2)], v[NR] }'; }
"$BUILD/bin/ldsan-cc" --emulate -O2 -Itest/emulator test/emulator/bench_reduce.hip -o "$tmp/emulated"
"$CLANG" -O2 test/emulator/bench_native.c -o "$tmp/native"
"$BUILD/bin/ldsan-cc" --emulate -O2 -fsanitize=lds -Itest/emulator test/emulator/bench_reduce.hip -o "$tmp/lds_only"
# The four sides of the reduction's ratios (bounds checks, native, race and
# uninit checks, LDS-only) in interleaved rounds, each the best of its runs over
# all rounds: the machine's load moves from minute to minute, and so each side
# gets the same chances at its quiet moments. The LDS-only side's ratio to full
# ASan is also taken in each round (best of 8 against best of 8, run one after
# the other), and printed as min/median/max over the rounds.
rounds=${BENCH_ROUNDS:-5}
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }'; }
emu= kern= loop= checked= lds_only= lds_ratios=
: >"$tmp/checks.ratio"; : >"$tmp/native.ratio"; : >"$tmp/native1.ratio"
for ((round = 0; round < rounds; round++)); do
  # full ASan and LDS-only one after the other, the first of them alternating
  if ((round % 2)); then o=$("$tmp/lds_only" 8 | value emulated_ms); fi
  e=$("$tmp/emulated" 8 | value emulated_ms)
  [[ -n "$e" ]] || { echo "bench: the emulated reduction printed no time"; exit 1; }
  if ((round % 2 == 0)); then o=$("$tmp/lds_only" 8 | value emulated_ms); fi
  [[ -n "$o" ]] || { echo "bench: the LDS-only reduction printed no time"; exit 1; }
  "$tmp/native" 8 >"$tmp/native.out"
  k=$(value native_kernel_ms "$tmp/native.out"); l=$(value native_loop_ms "$tmp/native.out")
  c=$(LDSAN_OPTIONS=detect_races=1:detect_uninit=1 "$tmp/emulated" 8 | value emulated_ms)
  # one worker thread: the emulator's cost per core, which the machine's load moves less
  s1=$(LDSAN_OPTIONS=emu_threads=1 "$tmp/emulated" 8 | value emulated_ms)
  [[ -n "$s1" ]] || { echo "bench: the emulated reduction on one thread printed no time"; exit 1; }
  awk -v a="$k" -v b="$s1" 'BEGIN { print b / a }' >>"$tmp/native1.ratio"
  [[ -n "$k" && -n "$l" && -n "$c" ]] || { echo "bench: a side of the reduction printed no time"; exit 1; }
  emu=$(min "$emu" "$e"); kern=$(min "$kern" "$k"); loop=$(min "$loop" "$l"); checked=$(min "$checked" "$c")
  lds_only=$(min "$lds_only" "$o")
  lds_ratios+="$(awk -v a="$e" -v b="$o" 'BEGIN { print b / a }') "
  awk -v a="$e" -v b="$c" 'BEGIN { print b / a }' >>"$tmp/checks.ratio"
  awk -v a="$k" -v b="$e" 'BEGIN { print b / a }' >>"$tmp/native.ratio"
done
echo "1M-element reduction, 4096 workgroups x 256 work-items (best of $((rounds * 8)) runs: $rounds interleaved rounds of 8):"
printf '  emulated, ldsan-sanitized (ldsan-cc --emulate -O2): %10.3f ms\n' "$emu"
printf '  native, kernel body as C (clang -O2):               %10.3f ms\n' "$kern"
printf '  native, plain loop (clang -O2):                     %10.3f ms\n' "$loop"
awk -v e="$emu" -v k="$kern" -v l="$loop" 'BEGIN {
  printf "ratio emulated / native kernel body: %.1fx (bests of all rounds)\n", e / k
  printf "ratio emulated / native plain loop:  %.1fx\n", e / l }'
printf 'ratio emulated / native kernel body, each round (best of 8 each side): %s (goal <= 5x)\n' "$(spread "$tmp/native.ratio")"
printf 'ratio emulated on one worker thread (emu_threads=1) / native kernel body, each round: %s\n' "$(spread "$tmp/native1.ratio")"
echo "  (load average at the end of the rounds: $(cut -d' ' -f1-3 /proc/loadavg); the emulator uses every core, the native side one)"
"$BUILD/bin/ldsan-cc" --emulate -O2 -Itest/emulator test/emulator/bench_blocks.hip -o "$tmp/blocks"
"$tmp/blocks" 10 >"$tmp/blocks.out"
lds=$(value lds_us_per_wg "$tmp/blocks.out")
plain=$(value plain_us_per_wg "$tmp/blocks.out")
[[ -n "$lds" && -n "$plain" ]] || { echo "bench: bench_blocks printed no times"; exit 1; }
echo "16384 workgroups x 16 work-items, one 64-byte __shared__ array (best of runs):"
printf '  per workgroup, through LDS (ldsan block enter/exit, checked accesses): %7.3f us\n' "$lds"
printf '  per workgroup, same kernel through registers:                         %7.3f us\n' "$plain"
awk -v a="$lds" -v b="$plain" 'BEGIN { printf "LDS share of a workgroup on the emulator: %.3f us (%.0f%% of its time)\n", a - b, 100 * (a - b) / a }'
"$BUILD/bin/ldsan-cc" --emulate -O2 -Itest/emulator test/emulator/bench_scaling.hip -o "$tmp/scaling"
"$tmp/scaling" 3 >"$tmp/scaling.out"
grep -q '^scale ' "$tmp/scaling.out" || { echo "bench: bench_scaling printed no times"; exit 1; }
echo "Scaling on the emulator (bench_scaling.hip: stage an LDS array, barrier, 64 reads per work-item; best of 3;"
echo "overhead: the same launch with the array and the barrier but no work, as a share of the time):"
awk '/^scale / {
  if (!head++) printf "  %-11s %8s %10s %10s %10s %14s %9s\n", "varying", "groups", "items/grp", "LDS B", "ms", "ns/work-item", "overhead"
  printf "  %-11s %8d %10d %10d %10.3f %14.2f %8d%%\n", $2, $3, $4, $5, $6, $7, $8 }' "$tmp/scaling.out"
"$BUILD/bin/ldsan-cc" --emulate -O2 -Itest/emulator test/emulator/bench_wave.hip -o "$tmp/wave"
"$tmp/wave" 5 >"$tmp/wave.out"
tree=$(value tree_ms "$tmp/wave.out")
shfl=$(value shuffle_ms "$tmp/wave.out")
[[ -n "$tree" && -n "$shfl" ]] || { echo "bench: bench_wave printed no times"; exit 1; }
echo "Lockstep waves (bench_wave.hip: the 1M-element reduction, 4096 x 256, best of 5):"
printf '  LDS tree with barriers (work-item loops):                 %10.3f ms\n' "$tree"
printf '  shuffles within each wave (work-item loops, in lockstep): %10.3f ms\n' "$shfl"
fib=$(LDSAN_OPTIONS=emu_fibers=1 "$tmp/wave" 3 | value shuffle_ms)
[[ -n "$fib" ]] || { echo "bench: bench_wave on fibers printed no time"; exit 1; }
printf '  the same shuffles as fibers (emu_fibers=1, best of 3): %7.3f ms\n' "$fib"
awk -v t="$tree" -v s="$shfl" 'BEGIN { printf "  lockstep cost: %.0f ns per work-item, %.1fx the tree\n", (s - t) * 1e6 / (4096 * 256), s / t }'
# An LDS bandwidth loop whose lanes only swap their own slots: work-item
# loops, no lockstep (bench_lds_swap.hip; lockstep made it several-fold
# slower); its twin with 65 barriers (fibers made it ~80x slower).
"$BUILD/bin/ldsan-cc" --emulate -O2 -Itest/emulator test/emulator/bench_lds_swap.hip -o "$tmp/swap"
: >"$tmp/swap.all"
: >"$tmp/swap_barriers.all"
for ((round = 0; round < rounds; round++)); do
  "$tmp/swap" 3 >"$tmp/swap.out" || { echo "bench: bench_lds_swap failed"; exit 1; }
  value swap_ms <"$tmp/swap.out" >>"$tmp/swap.all"
  value swap_barriers_ms <"$tmp/swap.out" >>"$tmp/swap_barriers.all"
done
for f in swap swap_barriers; do
  [[ $(wc -l <"$tmp/$f.all") -eq $((rounds * 3)) ]] || { echo "bench: bench_lds_swap printed no ${f}_ms times"; exit 1; }
done
sort -g "$tmp/swap.all" | awk '{ v[NR] = $1 } END {
  printf "LDS bandwidth loop (bench_lds_swap.hip: 256 x 256 work-items each swapping s[tid] and s[tid + blockDim.x] 1000 times,\n"
  printf "  %d runs in %d processes): min %.1f ms, median %.1f ms, max %.1f ms\n", NR, NR / 3, v[1], v[int((NR + 1) / 2)], v[NR] }'
sort -g "$tmp/swap_barriers.all" | awk '{ v[NR] = $1 } END {
  printf "  the same with a barrier after each swap (2048 swaps, 65 barriers: unrolled as gpumembench,\n"
  printf "  %d runs in %d processes): min %.1f ms, median %.1f ms, max %.1f ms\n", NR, NR / 3, v[1], v[int((NR + 1) / 2)], v[NR] }'
echo "LDS checks (the 1M-element reduction, best of $((rounds * 8)) in the rounds above; compiled in: best of 5):"
printf '  bounds checks only:                                       %10.3f ms (above)\n' "$emu"
printf '  with detect_races=1:detect_uninit=1:                      %10.3f ms\n' "$checked"
awk -v a="$emu" -v b="$checked" 'BEGIN { printf "  slowdown of the race and uninit checks: %.1fx (goal <= 2.5x)\n", b / a }'
printf '  checks / bounds only, each round (best of 8 each side, %d rounds): %s (goal <= 2.5x)\n' "$rounds" "$(spread "$tmp/checks.ratio")"
# The same checks compiled in (-fsanitize-lds=races,uninit: device/lds_checks.c, the GPU's code) on the emulator.
"$BUILD/bin/ldsan-cc" --emulate -O2 -fsanitize-lds=races,uninit -Itest/emulator test/emulator/bench_reduce.hip -o "$tmp/compiled_in"
compiled=$("$tmp/compiled_in" 5 | value emulated_ms)
[[ -n "$compiled" ]] || { echo "bench: the reduction with compiled-in checks printed no time"; exit 1; }
printf '  compiled in (-fsanitize-lds=races,uninit):                %10.3f ms\n' "$compiled"
awk -v a="$emu" -v b="$compiled" 'BEGIN { printf "  slowdown of the compiled-in checks on the emulator: %.1fx\n", b / a }'
# The tiled SGEMM (bench_matmul.hip, N x N, 16 x 16 tiles): the inner loop
# reads a row of As and a column of Bs that other work-items read too.
# Rounds of bounds checks only and with the checks, one process each, the
# ratio of the two per round (best of 2 runs each).
mm_n="${BENCH_MATMUL_N:-512}"
# matmul_best N PROGRAM...: the best matmul_ms of two runs of PROGRAM at N x N.
matmul_best() { local n=$1; shift; "$@" 2 "$n" | value matmul_ms | sort -g | head -1; }
"$BUILD/bin/ldsan-cc" --emulate -O2 -Itest/emulator test/emulator/bench_matmul.hip -o "$tmp/matmul"
: >"$tmp/matmul.ratio" ; : >"$tmp/matmul.bounds" ; : >"$tmp/matmul.checked"
for ((round = 0; round < rounds; round++)); do
  b=$(matmul_best "$mm_n" "$tmp/matmul")
  c=$(matmul_best "$mm_n" env LDSAN_OPTIONS=detect_races=1:detect_uninit=1 "$tmp/matmul")
  [[ -n "$b" && -n "$c" ]] || { echo "bench: bench_matmul printed no time"; exit 1; }
  echo "$b" >>"$tmp/matmul.bounds"; echo "$c" >>"$tmp/matmul.checked"
  awk -v a="$b" -v b="$c" 'BEGIN { print b / a }' >>"$tmp/matmul.ratio"
done
echo "LDS checks on a tiled SGEMM (bench_matmul.hip, ${mm_n} x ${mm_n}, 16 x 16 tiles, $rounds interleaved rounds, best of 2 each):"
printf '  bounds checks only (ms):                 %s\n' "$(spread "$tmp/matmul.bounds")"
printf '  with detect_races=1:detect_uninit=1 (ms): %s\n' "$(spread "$tmp/matmul.checked")"
printf '  checks / bounds only, each round: %s (goal <= 2.5x)\n' "$(spread "$tmp/matmul.ratio")"
# The same SGEMM against HIP-CPU (github.com/ROCm/HIP-CPU: HIP's API as C++17
# headers for the CPU, unsanitized), when HIP_CPU_DIR names a checkout of it
# (it needs libtbb-dev): the same source built with clang++ -O2 and its
# headers, ldsan's emulator with its defaults (full ASan, bounds checks), at
# each size, interleaved rounds of best-of-2 runs each side.
if [[ -n "${HIP_CPU_DIR:-}" ]]; then
  [[ -f "$HIP_CPU_DIR/include/hip/hip_runtime.h" ]] ||
    { echo "bench: HIP_CPU_DIR=$HIP_CPU_DIR has no include/hip/hip_runtime.h: point it at a HIP-CPU checkout"; exit 1; }
  "${CLANGXX:-clang++-22}" -std=c++17 -O2 -x c++ -I"$HIP_CPU_DIR/include" -Itest/emulator \
    test/emulator/bench_matmul.hip -o "$tmp/matmul_hipcpu" -ltbb -lpthread 2>"$tmp/hipcpu.log" ||
    { echo "bench: building bench_matmul.hip with HIP-CPU failed (libtbb-dev installed?):"; tail -5 "$tmp/hipcpu.log"; exit 1; }
  echo "The SGEMM against HIP-CPU (unsanitized; $rounds interleaved rounds, best of 2 runs each; ratio > 1: the emulator is faster):"
  printf '  %6s  %-36s  %-36s  %s\n' N "ldsan emulator, ms (min/median/max)" "HIP-CPU, ms (min/median/max)" "HIP-CPU / emulator each round"
  for n in ${BENCH_HIPCPU_SIZES:-64 128 256 512 1024}; do
    : >"$tmp/hc.emu"; : >"$tmp/hc.cpu"; : >"$tmp/hc.ratio"
    for ((round = 0; round < rounds; round++)); do
      if ((round % 2)); then h=$(matmul_best "$n" "$tmp/matmul_hipcpu"); fi
      e=$(matmul_best "$n" "$tmp/matmul")
      if ((round % 2 == 0)); then h=$(matmul_best "$n" "$tmp/matmul_hipcpu"); fi
      [[ -n "$e" && -n "$h" ]] || { echo "bench: bench_matmul ($n) printed no time"; exit 1; }
      echo "$e" >>"$tmp/hc.emu"; echo "$h" >>"$tmp/hc.cpu"
      awk -v a="$e" -v b="$h" 'BEGIN { print b / a }' >>"$tmp/hc.ratio"
    done
    printf '  %6d  %-36s  %-36s  %s\n' "$n" "$(spread "$tmp/hc.emu")" "$(spread "$tmp/hc.cpu")" "$(spread "$tmp/hc.ratio")"
  done
else
  echo "The SGEMM against HIP-CPU: not run (set HIP_CPU_DIR to a checkout of github.com/ROCm/HIP-CPU; needs libtbb-dev)"
fi
echo "Device cost of the compiled-in checks (test/compile/check_lds_checks.sh, static instructions; memory per"
echo "block: 10 bytes per LDS byte + 5504 bytes):"
for arch in gfx90a:xnack+ gfx942:xnack+; do
  printf '  %s\n' "$(test/compile/check_lds_checks.sh "$arch" -O2 | sed 's/^ok: //')"
done
# The LDS-only mode (-fsanitize=lds: no ASan in the program, LDS checked with ldsan's own shadow).
echo "LDS-only mode (the 1M-element reduction, best of $((rounds * 8)) in the rounds above):"
printf '  full ASan (ldsan-cc --emulate -O2):                       %10.3f ms (above)\n' "$emu"
printf '  LDS-only (ldsan-cc --emulate -O2 -fsanitize=lds):         %10.3f ms\n' "$lds_only"
printf '%s\n' $lds_ratios | sort -g | awk -v n="$rounds" '{ r[NR] = $1 } END {
  med = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
  printf "  LDS-only / full ASan on the emulator: %.2fx median (min %.2fx, max %.2fx; %d interleaved rounds, goal <= 1.1x)\n", med, r[1], r[NR], n }'
