#!/usr/bin/env bash
# HIP programs built with ldsan-cc as hipcc users build them (issue #9): a .hip
# with a templated kernel and std::vector host code (programs/reverse.hip) and a
# host-only .cpp with main() (programs/main.cpp), built
#   one      in one command
#   objects  with -c for each file, then a link of the .o files
#   static   with the .hip's object in a static library (ar rcs), linked with -L -l
#   shared   the .hip as a -shared -fPIC library, linked with the .o of main.cpp
# for the GPU (`gpu <how>`: the executable links, depends on libldsan-host.so and
# libamdhip64, and carries a gfx90a:xnack+ code object with ldsan's descriptors)
# and for the CPU emulator (`emulate <how>`: it runs and checks its own results;
# `emulate-bug <how>`: an LDS overflow planted in the templated kernel is
# reported naming the kernel and the variable).
# `queries`: --version, -dumpversion, -print-*, -E, -M, -MM, -MD -MF answer as clang++ does.
# `inputs`: a versioned libamdhip64.so.N.N.N on the link line, a host-only .cpp given
# --offload-arch (no warning), a C file, -x hip on a .cpp,
# a .cpp with kernels (HIP, as hipcc takes it), a .cpp that includes the HIP
# runtime through its project's headers (HIP), LDSAN_CLANG=clang-22 (means clang++-22).
# `emulate-targets`: --emulate with two --offload-arch values, gfx942, a processor
# without xnack (gfx1100) and --cuda-host-only.
# Usage: programs.sh gpu one|objects|static|shared [arch] ; programs.sh emulate|emulate-bug one|objects|static|shared ;
#        programs.sh queries|inputs|emulate-targets
set -euo pipefail
source "$(dirname "$0")/driver_lib.sh"
src="$root/test/tools/programs"
cd "$tmp"

# build <how> <ldsan-cc flags...>: makes ./app from reverse.hip and main.cpp.
build() {
  local how="$1"; shift
  case "$how" in
    one)     "$cc" "$@" -O2 "$src/reverse.hip" "$src/main.cpp" -o app ;;
    objects) "$cc" "$@" -O2 -c "$src/reverse.hip" -o reverse.o
             "$cc" "$@" -O2 -c "$src/main.cpp" -o main.o
             "$cc" "$@" main.o reverse.o -o app ;;
    static)  "$cc" "$@" -O2 -c "$src/reverse.hip" -o reverse.o
             "$cc" "$@" -O2 -c "$src/main.cpp" -o main.o
             ar rcs libreverse.a reverse.o
             "$cc" "$@" main.o -L. -lreverse -o app ;;
    shared)  "$cc" "$@" -O2 -shared -fPIC "$src/reverse.hip" -o libreverse.so
             "$cc" "$@" -O2 -c "$src/main.cpp" -o main.o
             "$cc" "$@" main.o -L. -lreverse -Wl,-rpath,"$tmp" -o app ;;
    *) echo "unknown build $how"; exit 2 ;;
  esac
  [[ -x app ]] || fail "$how: no executable"
}

# has_code_object <file> [arch]: its .hip_fatbin holds an <arch> (default gfx90a:xnack+)
# code object with ldsan's descriptors.
has_code_object() {
  extract_code_object "$1" "${2:-gfx90a:xnack+}" co
  dump_lds_descriptors co "$1" >/dev/null
}

case "$1" in
  gpu)  # gpu <how> [arch]: the default target, or the one given (on every command, as Makefiles do)
    arch="${3:-}"
    if [[ -n "$arch" ]]; then build "$2" --offload-arch="$arch"; else build "$2"; fi
    dyn="$(llvm-readelf-$v -d app)"
    grep -q 'NEEDED.*\[libldsan-host.so\]' <<<"$dyn" || fail "app does not depend on libldsan-host.so: $dyn"
    grep -q 'NEEDED.*\[libamdhip64.so' <<<"$dyn" || fail "app does not depend on libamdhip64: $dyn"
    grep -q 'NEEDED.*\[libstdc++.so' <<<"$dyn" || fail "app does not depend on libstdc++: $dyn"
    nm -D --undefined-only app | has hipLaunchKernel || [[ "$2" == shared ]] || fail "app does not call hipLaunchKernel"
    if [[ "$2" == shared ]]; then has_code_object libreverse.so $arch; else has_code_object app $arch; fi
    echo "ok: gpu $2: executable with libldsan-host.so, libamdhip64 and a ${arch:-gfx90a:xnack+} code object"
    ;;
  emulate)
    build "$2" --emulate
    ./app >out 2>&1 || { cat out; fail "emulate $2: the program failed"; }
    grep -q 'programs: PASSED' out || { cat out; fail "emulate $2: wrong results"; }
    echo "ok: emulate $2: $(tail -n 1 out)"
    ;;
  emulate-bug)
    build "$2" --emulate -DPLANT_LDS_BUG
    if ./app >out 2>&1; then cat out; fail "emulate-bug $2: the planted overflow went unreported"; fi
    for want in 'ERROR: AddressSanitizer: lds-buffer-overflow' \
                'in kernel void block_reverse<float>(float\*, int)' \
                "LDS variable 'tile' of size 1024" \
                'reverse.hip:25:'; do
      grep -q -- "$want" out || { cat out; fail "emulate-bug $2: report lacks /$want/"; }
    done
    echo "ok: emulate-bug $2: $(grep -m1 'ERROR:' out)"
    ;;
  queries)
    for e in "" --emulate; do
      "$cc" $e --version >out || fail "$e --version"
      grep -q 'clang version' out || fail "$e --version: $(cat out)"
      [[ "$("$cc" $e -dumpversion)" =~ ^[0-9]+\.[0-9] ]] || fail "$e -dumpversion"
      [[ -d "$("$cc" $e -print-resource-dir)" ]] || fail "$e -print-resource-dir"
      [[ -n "$("$cc" $e -print-prog-name=ld)" ]] || fail "$e -print-prog-name=ld"
      "$cc" $e -print-search-dirs | has '^libraries:' || fail "$e -print-search-dirs"
      "$cc" $e -E -I"$src" "$src/main.cpp" | has 'reverse_blocks' || fail "$e -E main.cpp"
      "$cc" $e -E "$src/reverse.hip" | has 'block_reverse' || fail "$e -E reverse.hip"
      "$cc" $e -M "$src/reverse.hip" | has 'reverse\.h' || fail "$e -M reverse.hip"
      "$cc" $e -MM "$src/main.cpp" | has '^main.o: .*main.cpp' || fail "$e -MM main.cpp"
      rm -f r.d; "$cc" $e -O1 -c -MD -MF r.d "$src/reverse.hip" -o r.o
      grep -q 'reverse\.h' r.d || fail "$e -MD -MF: no dependency file"
    done
    # --version gives clang's own answer, with ldsan's configuration file named.
    "$cc" --version | has "Configuration file: .*/lib/ldsan.cfg" || fail "--version does not name ldsan.cfg"
    echo "ok: --version, -dumpversion, -print-*, -E, -M, -MM, -MD -MF (GPU and --emulate)"
    ;;
  inputs)
    so="$(ls /usr/lib/x86_64-linux-gnu/libamdhip64.so.*.*.* 2>/dev/null | head -n 1)"
    [[ -n "$so" ]] || { echo "no versioned libamdhip64.so.N.N.N installed"; exit 77; }
    "$cc" -O2 -c "$src/reverse.hip" -o reverse.o
    "$cc" -O2 "$src/main.cpp" reverse.o "$so" -o app
    llvm-readelf-$v -d app | has 'NEEDED.*\[libamdhip64.so' || fail "versioned .so not linked"
    "$cc" --emulate -O2 "$src/main.cpp" "$src/reverse.hip" "$so" -o app-emu
    ./app-emu | has 'programs: PASSED' || fail "--emulate with a versioned libamdhip64 on the link line"
    # The same flags for every file, as Makefiles pass HIPFLAGS: a host-only .cpp takes the target silently.
    "$cc" -O2 --offload-arch=gfx942:xnack+ -fgpu-rdc -I"$src" -c "$src/main.cpp" -o main-t.o 2>err
    [[ ! -s err ]] || { cat err; fail "host-only .cpp with --offload-arch: warnings"; }
    # A C file stays C (clang++ would take it for C++); a .cpp after -x hip is HIP.
    printf '#include <stdlib.h>\nint c_helper(void) { int *p = malloc(sizeof *p); free(p); return 7; }\n' >helper.c
    "$cc" -c helper.c -o helper.o 2>err || { cat err; fail "C file"; }
    [[ ! -s err ]] || { cat err; fail "C file: warnings"; }
    cp "$src/reverse.hip" reverse_as.cpp
    "$cc" -O2 -I"$src" -x hip reverse_as.cpp -x none "$src/main.cpp" helper.o -o app-x
    has_code_object app-x
    cp reverse_as.cpp reverse_emu.cpp
    "$cc" --emulate -O2 -I"$src" -x hip reverse_emu.cpp -x none "$src/main.cpp" -o app-x-emu
    ./app-x-emu | has 'programs: PASSED' || fail "--emulate -x hip on a .cpp"
    # A .cpp with kernels and no -x hip is HIP, as hipcc compiles it; main.cpp stays plain C++.
    cp "$src/reverse.hip" reverse_kernels.cpp
    "$cc" -O2 -I"$src" reverse_kernels.cpp "$src/main.cpp" -o app-cpp -v 2>cmd
    grep -q -- '-x hip [^ ]*reverse_kernels.cpp' cmd || fail "reverse_kernels.cpp not compiled as HIP"
    if grep -q -- '-x hip [^ ]*main.cpp' cmd; then fail "host-only main.cpp compiled as HIP"; fi
    has_code_object app-cpp
    "$cc" --emulate -O2 -I"$src" -c reverse_kernels.cpp -o reverse_kernels.o
    "$cc" --emulate -O2 "$src/main.cpp" reverse_kernels.o -o app-cpp-emu
    ./app-cpp-emu | has 'programs: PASSED' || fail "--emulate: a .cpp with kernels"
    # A .cpp that gets HIP only through its project's headers (-I, then a quoted
    # include beside the header) is HIP too; as plain C++ it would not compile.
    mkdir -p inc/proj
    printf '#pragma once\n#include "detail.h"\n' >inc/proj/util.h
    printf '#pragma once\n#include <hip/hip_runtime.h>\n' >inc/proj/detail.h
    cat >roundtrip.cpp <<'CPP'
#include <cstdio>
#include <proj/util.h>
int main() {
  int h = 42, back = 0, *d = nullptr;
  if (hipMalloc(&d, sizeof h) != hipSuccess || hipMemcpy(d, &h, sizeof h, hipMemcpyHostToDevice) != hipSuccess ||
      hipMemcpy(&back, d, sizeof h, hipMemcpyDeviceToHost) != hipSuccess || back != h) return 1;
  hipFree(d);
  std::puts("roundtrip: PASSED");
}
CPP
    "$cc" -O2 -Iinc -c roundtrip.cpp -o roundtrip.o -v 2>cmd || { cat cmd; fail "a .cpp with HIP through its headers"; }
    grep -q -- '-x hip [^ ]*roundtrip.cpp' cmd || fail "roundtrip.cpp (HIP through -I headers) not compiled as HIP"
    "$cc" --emulate -O2 -I inc roundtrip.cpp -o roundtrip-emu || fail "--emulate: a .cpp with HIP through its headers"
    ./roundtrip-emu | has 'roundtrip: PASSED' || fail "--emulate: roundtrip.cpp"
    LDSAN_CLANG=clang-$v "$cc" -O2 -I"$src" -x hip reverse_as.cpp -x none "$src/main.cpp" -o app-env -v 2>cmd
    grep -q "^ldsan-cc: running clang++-$v " cmd || fail "LDSAN_CLANG=clang-$v does not run clang++-$v"
    echo "ok: versioned $so, a C file, -x hip on a .cpp, a .cpp with kernels, a .cpp with HIP through its headers"
    ;;
  emulate-targets)
    # Targets as CMake and multi-target builds give them: the emulator runs one (the first).
    "$cc" --emulate -O2 --offload-arch=gfx90a --offload-arch=gfx942:xnack- "$src/reverse.hip" "$src/main.cpp" -o app 2>err
    [[ ! -s err ]] || { cat err; fail "two --offload-arch values: unexpected output"; }
    ./app | has 'programs: PASSED' || fail "two --offload-arch values"
    "$cc" --emulate -O2 -v --offload-arch=gfx942 -c "$src/reverse.hip" -o r.o 2>err
    has -- '-target-cpu gfx942' err || fail "--offload-arch=gfx942: device code not compiled for gfx942"
    has -- '-target-feature +xnack' err || fail "--offload-arch=gfx942: device code not compiled with xnack+"
    "$cc" --emulate -O2 --offload-arch=gfx1100 "$src/reverse.hip" "$src/main.cpp" -o app 2>err
    has "note: the emulator runs device code compiled for gfx90a:xnack+ (wave64) in place of 'gfx1100'" err \
      || { cat err; fail "gfx1100: no note on the substituted target"; }
    ./app | has 'programs: PASSED' || fail "--offload-arch=gfx1100"
    # --cuda-host-only (CMake's compiler check): the host part alone, as clang builds it.
    "$cc" --emulate -O2 --cuda-host-only -c "$src/reverse.hip" -o host.o
    nm host.o | has '__hip_fatbin_' || fail "--cuda-host-only: not a HIP host object"
    if nm host.o | grep '__ldsan_emu_' >/dev/null; then fail "--cuda-host-only: device code in the object"; fi
    "$cc" --emulate -O2 host.o "$src/main.cpp" -o app-host
    if ./app-host >out 2>&1; then fail "--cuda-host-only: a kernel without device code ran"; fi
    has "no emulated device code for kernel 'void block_reverse<float>(float\*, int)'" out \
      || { cat out; fail "--cuda-host-only: unclear launch error"; }
    echo "ok: --emulate with two targets, gfx942, gfx1100 (noted) and --cuda-host-only"
    ;;
  *) echo "unknown case $1"; exit 2 ;;
esac
