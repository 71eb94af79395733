#!/usr/bin/env bash
# ldsan's static device cost (issue #10), computed from the compiler's output:
# test/bench/reference_kernels.hip built with ldsan-cc for a target (-O2 -S),
# then from the assembly
#   per reference kernel: SGPRs, VGPRs, AGPRs, scratch bytes, occupancy (waves
#     per SIMD), as the code object's .amdhsa metadata and the compiler say;
#   per ldsan runtime function in the code object: instructions, loops
#     (backward branches), global atomics, release/acquire fences
#     (buffer_wbl2 / buffer_inv), calls, and its own SGPRs, VGPRs, AGPRs and
#     scratch (a kernel allocates the most any function it calls needs).
# Usage: static_cost.sh [target ...]   (default gfx942:xnack+ gfx90a:xnack+)
#        static_cost.sh --kernel-line <target> <kernel>  one line "sgpr vgpr agpr scratch occupancy instrs"
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$root/${BUILD:-build}"
cc="$build/bin/ldsan-cc"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT

# assemble <target>: prints the path of the reference kernels' assembly.
assemble() {
  local s="$tmp/${1//:/_}.s"
  [[ -s "$s" ]] || "$cc" --offload-arch="$1" --offload-device-only -O2 -S "$root/test/bench/reference_kernels.hip" \
    -o "$s" 2>"$tmp/err" || { cat "$tmp/err" >&2; echo "static_cost.sh: compiling for $1 failed" >&2; exit 1; }
  echo "$s"
}

# kernel_line <asm> <mangled kernel>: "sgpr vgpr agpr scratch occupancy instrs" (kernel_line.awk).
kernel_line() { awk -v k="$2" -f "$root/test/bench/kernel_line.awk" "$1"; }

if [[ "${1:-}" == --kernel-line ]]; then kernel_line "$(assemble "$2")" "$3"; exit 0; fi

# function_table <asm>: one line per ldsan runtime function, its resources from
# the compiler's notes after its body (TotalNumSgprs, NumVgprs, NumAgprs, ScratchSize).
function_table() {
  awk '
    function flush() {
      if (fn != "" && fn !~ /^_Z/ && fn !~ /^(amdgcn|asan\.)/ && n > 0)
        printf "  %-30s %6d %5d %7d %6d %5d %5s %5s %5s %7s\n", fn, n, loops, atomics, fences, calls, sg, vg, ag, sc
      fn = ""
    }
    /^[A-Za-z_.$][A-Za-z0-9_.$]*:/ {
      label = $1; sub(":.*", "", label)
      if (label ~ /^\.LBB/) { seen[label] = 1; next }
      if (label ~ /^\.Lfunc_end/) { ending = 1; next }
      if (label ~ /^\.L(tmp|func_begin)/) next
      flush(); ending = 0; fn = label; sub(/^\.L/, "", fn)
      n = loops = atomics = fences = calls = 0; sg = vg = ag = sc = "?"; delete seen; next
    }
    ending && $1 == ";" && $2 == "TotalNumSgprs:" { sg = $3 }
    ending && $1 == ";" && $2 == "NumVgprs:" { vg = $3 }
    ending && $1 == ";" && $2 == "NumAgprs:" { ag = $3 }
    ending && $1 == ";" && $2 == "ScratchSize:" { sc = $3 }
    !ending && fn != "" && /^[ \t]+[a-z_][a-z0-9_]*/ && $1 !~ /^\./ {
      n++
      if ($1 ~ /^(global|flat|buffer)_atomic/) atomics++
      if ($1 ~ /^(buffer_wbl2|buffer_inv|buffer_gl[01]_inv|buffer_wbinvl1)/) fences++
      if ($1 ~ /^s_swappc/) calls++
      if ($1 ~ /^s_(c)?branch/ && ($NF in seen)) loops++
    }
    END { flush() }' "$1"
}

targets=("$@"); [[ ${#targets[@]} -gt 0 ]] || targets=(gfx942:xnack+ gfx90a:xnack+)
for t in "${targets[@]}"; do
  s="$(assemble "$t")"
  echo "== ldsan static device cost, $t (ldsan-cc --offload-device-only -O2 -S test/bench/reference_kernels.hip)"
  printf "  %-30s %6s %6s %6s %8s %10s %7s\n" kernel SGPR VGPR "(AGPR)" scratch occupancy instrs
  for k in _Z6ref_1kPf _Z7ref_40kPf; do
    read -r sg vg ag sc oc n <<<"$(kernel_line "$s" "$k")"
    printf "  %-30s %6s %6s %6s %8s %10s %7s\n" "$k" "$sg" "$vg" "$ag" "$sc" "$oc" "$n"
  done
  echo "  ROCm asanrtl (issue #10, llc-22 for gfx942, 1 KiB array): SGPR 106, VGPR 62, scratch 240 B, occupancy 7-8"
  printf "  %-30s %6s %5s %7s %6s %5s %5s %5s %5s %7s\n" "runtime function" instrs loops atomics fences calls SGPR VGPR AGPR scratch
  function_table "$s"
done
