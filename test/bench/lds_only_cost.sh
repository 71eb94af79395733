#!/usr/bin/env bash
# make bench: what the LDS-only mode (ldsan-cc -fsanitize=lds) costs a kernel
# against the full-ASan build of the same kernel (issue #13), from the
# compiler's output (-O2 -S), per target:
#   the reference kernels (test/bench/reference_kernels.hip): SGPRs, VGPRs,
#     scratch, occupancy and instructions, as static_cost.sh reads them;
#   instructions per checked LDS access: lds_reads_9 minus lds_reads_1 of
#     test/bench/lds_access_cost.hip, over the 8 extra loads.
# Full ASan needs an xnack+ target; the LDS-only mode builds for any (RDNA
# rows have no full-ASan column). Not a test.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$root/${BUILD:-build}"
cc="$build/bin/ldsan-cc"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT

# asm <file.hip> <target> [flags...]: compiles to assembly, prints its path.
asm() {
  local src="$1" t="$2"; shift 2
  local s="$tmp/$(basename "$src" .hip).${t//:/_}$*.s"
  s="${s// /}"
  "$cc" --offload-arch="$t" --offload-device-only -O2 -S "$@" "$src" -o "$s" 2>"$tmp/err" \
    || { cat "$tmp/err" >&2; echo "lds_only_cost.sh: compiling $src for $t $* failed" >&2; exit 1; }
  echo "$s"
}
# line <asm> <kernel>: "sgpr vgpr agpr scratch occupancy instrs" (kernel_line.awk)
line() { awk -v k="$2" -f "$root/test/bench/kernel_line.awk" "$1"; }
per_access() {  # per_access <asm>: (instrs of lds_reads_9 - lds_reads_1) / 8
  local a b
  a=$(line "$1" _Z11lds_reads_1Pf | awk '{print $6}')
  b=$(line "$1" _Z11lds_reads_9Pf | awk '{print $6}')
  awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f", (b - a) / 8 }'
}

echo "== LDS-only mode (-fsanitize=lds) against full ASan: static cost (ldsan-cc --offload-device-only -O2 -S)"
printf "  %-13s %-8s %-8s %5s %5s %8s %9s %7s   %s\n" target mode kernel SGPR VGPR scratch occupancy instrs "instrs per LDS access"
for t in gfx90a gfx942 gfx1100; do
  modes=(lds-only)
  [[ "$t" == gfx9* ]] && modes=(full lds-only)
  for m in "${modes[@]}"; do
    if [[ "$m" == full ]]; then tt="$t:xnack+"; flags=(); else tt="$t"; flags=(-fsanitize=lds); fi
    ref="$(asm "$root/test/bench/reference_kernels.hip" "$tt" "${flags[@]}")"
    acc="$(asm "$root/test/bench/lds_access_cost.hip" "$tt" "${flags[@]}")"
    pa="$(per_access "$acc")"
    for k in ref_1k ref_40k; do
      read -r sg vg ag sc oc n <<<"$(line "$ref" "_Z${#k}${k}Pf")"
      printf "  %-13s %-8s %-8s %5s %5s %8s %9s %7s   %s\n" "$tt" "$m" "$k" "$sg" "$vg" "$sc" "$oc" "$n" "$pa"
    done
  done
done
echo "  (instrs: the kernel's own, ldsan's inlined block paths included; per LDS access: address, inline shadow check, load)"
