#!/usr/bin/env bash
# The LDS race and uninitialized-read checks compiled in for a GPU target
# (ldsan-cc -fsanitize-lds=races,uninit, instrument/LdsChecks.h): the code
# object links (no undefined symbol), its kernel calls __ldsan_lds_check at
# its LDS accesses, __ldsan_lds_check_flat in the function it passes an LDS
# pointer to, __ldsan_lds_check_barrier after each barrier,
# __ldsan_lds_check_wave_barrier after its wave barrier (races only),
# __ldsan_lds_checks_enter once and __ldsan_lds_check_exit once, its descriptor says R and U; built without
# the option, none of that is there (no cost). Prints the instructions of
# the per-access check (make bench reads the line).
# Usage: check_lds_checks.sh <arch> [-O0|-O2]
set -euo pipefail
arch="$1"; opt="${2:--O2}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cc="$root/${BUILD:-build}/bin/ldsan-cc"
dump="$root/${BUILD:-build}/test/instrument/desc-dump"
v="${LLVM_VERSION:-22}"
src="$root/test/compile/lds_checked.hip"
source "$root/test/compile/code_object_lib.sh"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL [$arch $opt lds checks]: $*" >&2; exit 1; }
build() {  # build <out> [flags...]: the code object and its assembly
  local out="$1"; shift
  "$cc" --offload-arch="$arch" --offload-device-only --no-gpu-bundle-output "$opt" -nogpuinc -nogpulib "$@" -c "$src" -o "$out" 2>"$tmp/err" \
    || { cat "$tmp/err" >&2; fail "ldsan-cc failed to build the code object"; }
  "$cc" --offload-arch="$arch" --offload-device-only "$opt" -nogpuinc -nogpulib "$@" -S "$src" -o "$out.s" 2>"$tmp/err" \
    || { cat "$tmp/err" >&2; fail "ldsan-cc -S failed"; }
}
build "$tmp/co" -fsanitize-lds=races,uninit
undef="$(unresolved_symbols "$tmp/co")"
[[ -z "$undef" ]] || fail "undefined symbols in the linked code object: $(echo $undef)"
# calls <function> <callee>: calls of callee (s_swappc through @rel32 addresses) in function's body.
calls() { awk -v f="$1:" '$1==f {on=1} on && /^\.Lfunc_end/ {on=0} on' "$tmp/co.s" | grep -cE "$2@rel32@lo" || true; }
k=_Z7checkedPii
# (At -O0 the kernel reaches its LDS through flat pointers: __ldsan_lds_check_flat.)
n=$(calls $k '__ldsan_lds_check(_flat)?'); [[ $n -ge 6 ]] || fail "kernel calls __ldsan_lds_check(_flat) $n times, expected its LDS accesses (at least 6)"
n=$(calls $k __ldsan_lds_check_barrier); [[ $n -eq 2 ]] || fail "kernel calls __ldsan_lds_check_barrier $n times, expected 2 (its barriers)"
n=$(calls $k __ldsan_lds_check_wave_barrier); [[ $n -eq 1 ]] || fail "kernel calls __ldsan_lds_check_wave_barrier $n times, expected 1 (its wave barrier)"
n=$(calls $k __ldsan_lds_checks_enter); [[ $n -eq 1 ]] || fail "kernel calls __ldsan_lds_checks_enter $n times, expected 1"
n=$(calls $k __ldsan_lds_check_exit); [[ $n -eq 1 ]] || fail "kernel calls __ldsan_lds_check_exit $n times, expected 1 (after its exit barrier)"
n=$(calls $k __ldsan_kernel_enter_checked); [[ $n -eq 0 ]] || fail "the checked enter is called, not inlined into the kernel"
n=$(calls _Z4bumpPii __ldsan_lds_check_flat); [[ $n -ge 2 ]] || fail "bump(int*, int) does not check its flat load and store"
llvm-objcopy-$v -O binary --only-section=.ldsan_lds_desc "$tmp/co" "$tmp/desc.bin"
"$dump" "$tmp/desc.bin" | grep -q "^kernel $k .* flags=DRU$" || { "$dump" "$tmp/desc.bin" >&2; fail "descriptor flags are not DRU"; }
# The per-access checks, for make bench: instructions of each body (at -O0
# the kernel has only flat accesses, so only the flat check is there).
body() { awk -v f="$1:" '$1==f {on=1; next} on && /^\.Lfunc_end/ {on=0} on && $1 ~ /^[sv]_|^global_|^flat_|^buffer_|^ds_/' "$tmp/co.s" | wc -l; }
insns=$(body __ldsan_lds_check); flat_insns=$(body __ldsan_lds_check_flat)
[[ $flat_insns -gt 0 ]] || fail "no __ldsan_lds_check_flat body in the assembly"
[[ $opt == -O0 || $insns -gt 0 ]] || fail "no __ldsan_lds_check body in the assembly"
# Uninitialized reads only: wave barriers do not matter to them.
build "$tmp/uninit" -fsanitize-lds=uninit
! grep -q "__ldsan_lds_check_wave_barrier" "$tmp/uninit.s" || fail "a build with -fsanitize-lds=uninit calls __ldsan_lds_check_wave_barrier"
# Without the option: nothing of it.
build "$tmp/plain"
! grep -q "__ldsan_lds_check\|__ldsan_kernel_enter_checked" "$tmp/plain.s" || fail "a build without -fsanitize-lds has LDS check code"
llvm-objcopy-$v -O binary --only-section=.ldsan_lds_desc "$tmp/plain" "$tmp/plain-desc.bin"
"$dump" "$tmp/plain-desc.bin" | grep -q "^kernel $k .* flags=D$" || fail "a build without -fsanitize-lds has check flags in its descriptor"
echo "ok: $arch $opt: instructions in __ldsan_lds_check $insns, __ldsan_lds_check_flat $flat_insns"
