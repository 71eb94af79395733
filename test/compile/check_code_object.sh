#!/usr/bin/env bash
# Compiles one HIP file with ldsan-cc for one xnack+ target and checks the
# linked device code object: no undefined symbols, ldsan's LDS descriptors
# present, and every kernel descriptor requesting the inputs ldsan's runtime
# reads (workgroup ids x/y/z, workitem ids x/y/z, kernarg/implicit-arg pointer).
# Usage: check_code_object.sh <arch> <file.hip> [headers][,lds-only]   (a "// CFLAGS:" line adds flags)
#   headers: compile with Debian's HIP headers and device libraries instead of
#   -nogpuinc -nogpulib (only for targets those libraries know).
#   lds-only: ldsan-cc -fsanitize=lds (any target, no xnack, no ASan): also checks
#   that no inline check uses ASan's shadow, that the device state says the image
#   keeps its own shadow, and the target's wave size in every kernel descriptor.
set -euo pipefail
arch="$1"; src="$2"; mode="${3:-builtins}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cc="$root/${BUILD:-build}/bin/ldsan-cc"
v="${LLVM_VERSION:-22}"
source "$root/test/compile/code_object_lib.sh"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
if [[ ",$mode," == *,headers,* ]]; then flags=(-DUSE_HIP_HEADERS); else flags=(-nogpuinc -nogpulib); fi
lds_only=0
if [[ ",$mode," == *,lds-only,* ]]; then lds_only=1; flags+=(-fsanitize=lds); fi
# Extra flags from a "// CFLAGS: ..." line in the source (as test/lib/build_program.sh reads them).
read -r -a extra <<<"$(sed -n 's|^[[:space:]]*// CFLAGS:[[:space:]]*||p' "$src" | tail -n 1)"
flags+=(${extra[@]+"${extra[@]}"})
# And from the environment (EXTRA_CFLAGS, e.g. -mwavefrontsize64).
read -r -a more <<<"${EXTRA_CFLAGS:-}"
flags+=(${more[@]+"${more[@]}"})
fail() { echo "FAIL [$arch $(basename "$src")]: $*" >&2; exit 1; }

"$cc" --offload-arch="$arch" --offload-device-only --no-gpu-bundle-output -O2 "${flags[@]}" -c "$src" -o "$tmp/co" 2>"$tmp/err" \
  || { cat "$tmp/err" >&2; fail "ldsan-cc failed to build the code object"; }
"$cc" --offload-arch="$arch" --offload-device-only -O2 "${flags[@]}" -S "$src" -o "$tmp/co.s" 2>"$tmp/err" \
  || { cat "$tmp/err" >&2; fail "ldsan-cc -S failed"; }

[[ "$(head -c 4 "$tmp/co" | od -An -c | tr -d " ")" == "177ELF" ]] || fail "output is not an ELF code object"
undef="$(unresolved_symbols "$tmp/co")"
[[ -z "$undef" ]] || fail "undefined symbols in the linked code object: $(echo $undef)"

# Every kernel in the source must have a descriptor blob naming it.
kernels="$(grep -o '^\s*\.amdhsa_kernel [^ ]*' "$tmp/co.s" | awk '{print $2}')"
[[ -n "$kernels" ]] || fail "no kernels found in the assembly"
sections="$(llvm-readelf-$v -S "$tmp/co")"   # captured: grep -q on a pipe races with pipefail
grep -q '\.ldsan_lds_desc' <<<"$sections" || fail "no .ldsan_lds_desc section"
llvm-objcopy-$v -O binary --only-section=.ldsan_lds_desc "$tmp/co" "$tmp/desc.bin"
for k in $kernels; do
  # amdgcn.device.init/fini are made by codegen from the ASan module ctor after
  # the plugin ran; their amdgpu-no-* are inferred from their real code.
  [[ "$k" == amdgcn.device.init || "$k" == amdgcn.device.fini ]] && continue
  # Kernels without LDS are not lowered and need no descriptor.
  if grep -q "llvm.amdgcn.sw.lds.$k\b" "$tmp/co.s" || grep -q "__ldsan_kdesc.$k\b" "$tmp/co.s"; then
    grep -aq "$k" "$tmp/desc.bin" || fail "kernel $k has lowered LDS but no descriptor names it"
  fi
  # The kernel descriptor block of this kernel, from .amdhsa_kernel to .end_amdhsa_kernel.
  block="$(awk -v k="$k" '$1==".amdhsa_kernel" && $2==k {on=1} on {print} $1==".end_amdhsa_kernel" {on=0}' "$tmp/co.s")"
  for want in ".amdhsa_system_sgpr_workgroup_id_x 1" ".amdhsa_system_sgpr_workgroup_id_y 1" \
              ".amdhsa_system_sgpr_workgroup_id_z 1" ".amdhsa_system_vgpr_workitem_id 2" \
              ".amdhsa_user_sgpr_kernarg_segment_ptr 1"; do
    grep -q -- "$want" <<<"$block" || fail "kernel $k descriptor lacks '$want' (the runtime reads that input)"
  done
done
# A kernel with dynamic LDS reads its size from the dispatch packet (the
# dispatch pointer is one of its inputs) and its metadata does not name
# hidden_dynamic_lds_size: HIP before ROCm 6.1 does not know that argument
# kind and reads past the launch's argument array for it
# (instrument/DynamicLdsSize.h).
if grep -q 'extern __shared__' "$src"; then
  ! grep -q 'hidden_dynamic_lds_size' "$tmp/co.s" || fail "a kernel's metadata names hidden_dynamic_lds_size (HIP before 6.1 reads past the launch's arguments for it)"
  grep -q '.amdhsa_user_sgpr_dispatch_ptr 1' "$tmp/co.s" || fail "no kernel takes the dispatch pointer though the source uses dynamic LDS"
fi
if [[ $lds_only -eq 1 ]]; then
  # ASan's shadow offset 0x7FFF8000 appears nowhere: the checks use ldsan's own shadow.
  ! grep -qiE '0x7fff8000|2147450880' "$tmp/co.s" || fail "the LDS-only code object uses ASan's shadow offset 0x7FFF8000"
  # __ldsan_device_state's initial flags (its second u32) carry LDSAN_STATE_OWN_SHADOW (8).
  # (awk reads to the end: an early exit would kill the reader with SIGPIPE under pipefail)
  syms="$(llvm-readelf-$v -s "$tmp/co")"; sects="$(llvm-readelf-$v -S "$tmp/co")"
  sym="$(awk '$8 == "__ldsan_device_state" && !done {print $2, $7; done = 1}' <<<"$syms")"
  [[ -n "$sym" ]] || fail "no __ldsan_device_state symbol"
  read -r value ndx <<<"$sym"
  sect="$(sed 's/^ *\[ *\([0-9]*\)\]/\1/' <<<"$sects" | awk -v n="$ndx" '$1 == n && !done {print $4, $5; done = 1}')"
  read -r saddr soff <<<"$sect"
  off=$(( 16#$value - 16#$saddr + 16#$soff + 4 ))
  flags_word="$(od -An -tu4 -j "$off" -N 4 "$tmp/co" | tr -d ' ')"
  (( (flags_word & 8) != 0 )) || fail "__ldsan_device_state flags are $flags_word: LDSAN_STATE_OWN_SHADOW (8) not set"
  # RDNA runs wave32 unless asked for wave64; gfx9 always wave64.
  case "$arch" in gfx10*|gfx11*|gfx12*) want_w32=1 ;; *) want_w32=0 ;; esac
  [[ " ${flags[*]} " == *" -mwavefrontsize64 "* ]] && want_w32=0
  for k in $kernels; do
    block="$(awk -v k="$k" '$1==".amdhsa_kernel" && $2==k {on=1} on {print} $1==".end_amdhsa_kernel" {on=0}' "$tmp/co.s")"
    w32="$(awk '$1 == ".amdhsa_wavefront_size32" {print $2}' <<<"$block")"
    [[ "${w32:-0}" == "$want_w32" ]] || fail "kernel $k: .amdhsa_wavefront_size32 is '${w32:-absent}', want $want_w32"
  done
fi
mode_note=""; [[ $lds_only -eq 1 ]] && mode_note=" (lds-only)"
echo "ok: $arch $(basename "$src")$mode_note: kernels $(echo $kernels)"
