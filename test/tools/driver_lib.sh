# What the tests of ldsan-cc builds (test/tools, test/cmake, test/make) share;
# sourced by them. Sets root (the repository), build (the build directory,
# $BUILD or build), cc (ldsan-cc), v (the LLVM version, $LLVM_VERSION or 22) and
# tmp (a temporary directory removed on exit), and sources
# test/compile/code_object_lib.sh. Set fail_label to name the test case in
# failure messages.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$root/${BUILD:-build}"
cc="$build/bin/ldsan-cc"
v="${LLVM_VERSION:-22}"
source "$root/test/compile/code_object_lib.sh"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT

# fail <message>: prints "FAIL [<fail_label>]: <message>" on stderr (so it shows from inside $(...) too) and exits 1.
fail() { echo "FAIL${fail_label:+ [$fail_label]}: $*" >&2; exit 1; }

# has <grep arguments...>: grep with the output dropped; grep -q in a pipeline would end the writer early (pipefail).
has() { grep "$@" >/dev/null; }

# fatbin_section <file> <output>: writes the .hip_fatbin section of an executable, library or object to <output>.
fatbin_section() {
  llvm-objcopy-$v -O binary --only-section=.hip_fatbin "$1" "$2" || fail "$1: llvm-objcopy failed"
  [[ -s "$2" ]] || fail "$1 has no .hip_fatbin section"
}

# unbundle_code_object <offload bundle> <arch> <output> [what]: writes the bundle's <arch> code object to <output>.
unbundle_code_object() {
  local bundle="$1" target="hipv4-amdgcn-amd-amdhsa--$2" out="$3" what="${4:-$1}" targets
  local bundler=/usr/lib/llvm-$v/bin/clang-offload-bundler
  targets="$("$bundler" --list --type=o --input="$bundle" 2>&1)" || fail "$what: not an offload bundle: $targets"
  grep -qxF -- "$target" <<<"$targets" || fail "$what: no $2 code object; it has: $(echo $targets)"
  "$bundler" --unbundle --type=o --input="$bundle" --targets="$target" --output="$out" || fail "$what: unbundling $2"
}

# extract_code_object <file> <arch> <output>: writes the <arch> code object of <file>'s .hip_fatbin
# (one offload bundle, as a link of one TU with device code or an -fgpu-rdc link makes) to <output>.
extract_code_object() {
  fatbin_section "$1" "$3.fatbin"
  unbundle_code_object "$3.fatbin" "$2" "$3" "$1"
}

# dump_lds_descriptors <code object> [what]: prints desc-dump's listing of its .ldsan_lds_desc section.
dump_lds_descriptors() {
  local co="$1" what="${2:+$2: }" out
  llvm-readelf-$v -S "$co" | has '\.ldsan_lds_desc' || fail "${what}no .ldsan_lds_desc section in the code object"
  llvm-objcopy-$v -O binary --only-section=.ldsan_lds_desc "$co" "$co.desc" || fail "${what}llvm-objcopy failed on $co"
  out="$("$build/test/instrument/desc-dump" "$co.desc")" || fail "${what}desc-dump: $out"
  echo "$out"
}

# check_all_symbols_defined <code object>: fails naming what a loader would have to resolve in it.
check_all_symbols_defined() {
  local undef
  undef="$(unresolved_symbols "$1")" || fail "$1: llvm-readelf failed"
  [[ -z "$undef" ]] || fail "undefined device symbols: $(echo $undef)"
}

# check_runtime_defined_once <code object>: ldsan's device state is defined exactly once (an -fgpu-rdc device
# link of several TUs, each carrying ldsan's runtime, keeps one).
check_runtime_defined_once() {
  local syms s n
  syms="$(llvm-nm-$v --defined-only "$1")" || fail "$1: llvm-nm failed"
  for s in __ldsan_device_state __ldsan_builtin_channel __ldsan_builtin_pool; do
    n="$(awk -v s="$s" '$3 == s' <<<"$syms" | wc -l)"
    [[ "$n" == 1 ]] || fail "$s is defined $n times in the code object"
  done
}
