#!/usr/bin/env bash
# ldsan host: every host/*.c compiles warning-free (-Wall -Wextra -Werror, C11),
# stays under 500 lines, and a plain C program links libldsan-host.a with no
# C++ runtime and still gets demangled names.
set -u
cd "$(dirname "$0")/../.."
CLANG="${CLANG:-clang-${LLVM_VERSION:-22}}"
BUILD="${BUILD:-build}"
fail=0
for f in host/*.c; do
  if ! "$CLANG" -std=c11 -O2 -Wall -Wextra -Werror -Iinclude -Ihost -fPIC -c "$f" -o /dev/null; then
    echo "FAIL: $f does not compile warning-free"; fail=1
  fi
  n=$(wc -l < "$f")
  if [ "$n" -gt 500 ]; then echo "FAIL: $f has $n lines (limit 500)"; fail=1; fi
done
lib="$BUILD/lib/libldsan-host.a"
if [ ! -f "$lib" ]; then echo "FAIL: $lib not built (make host)"; exit 1; fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if ! "$CLANG" -std=c11 -Wall -Wextra -Werror -Iinclude test/host/plain/main.c "$lib" -pthread -o "$tmp/plain"; then
  echo "FAIL: plain C program does not link against $lib without -lstdc++"; exit 1
fi
if nm "$tmp/plain" | grep -q ' T __cxa_demangle'; then echo "note: C++ runtime linked statically"; fi
out=$(LDSAN_OPTIONS=color=never "$tmp/plain" 2>&1)
echo "$out"
grep -q "ERROR: AddressSanitizer: lds-buffer-overflow on address 0x5000" <<<"$out" || { echo "FAIL: no headline"; fail=1; }
grep -q "in kernel k1(int\*, int)" <<<"$out" || { echo "FAIL: kernel name not demangled without -lstdc++"; fail=1; }
grep -q "^SUMMARY: AddressSanitizer: lds-buffer-overflow in k1(int\*, int)$" <<<"$out" || { echo "FAIL: no SUMMARY"; fail=1; }
[ $fail -eq 0 ] && echo "host build checks passed"
exit $fail
