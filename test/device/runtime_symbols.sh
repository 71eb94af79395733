#!/usr/bin/env bash
# Checks build/lib/ldsan-rt.bc: defines every ABI symbol (test/device/expected_symbols.c)
# with external linkage, carries no "target-cpu"/"target-features" (the plugin
# stamps them), and declares no function it does not define except intrinsics.
set -u
build="${BUILD:-build}"
bc="$build/lib/ldsan-rt.bc"
clang="${CLANG:-clang-22}" nm="${LLVM_NM:-llvm-nm-22}" dis="${LLVM_DIS:-llvm-dis-22}"
[[ -f "$bc" ]] || { echo "missing $bc (make runtime)"; exit 1; }
fail=0
expected=$("$clang" -E -P -Iinclude test/device/expected_symbols.c | tr -s ' \t' '\n' | grep -v '^$' | sort -u)
defined=$("$nm" --defined-only --extern-only "$bc" | awk '{print $NF}' | sort -u)
missing=$(comm -23 <(echo "$expected") <(echo "$defined"))
if [[ -n "$missing" ]]; then echo "not defined:"; echo "$missing" | sed 's/^/  /'; fail=1; fi
echo "$(echo "$expected" | wc -l) expected symbols checked"
ir=$("$dis" "$bc" -o -)
if grep -q '"target-cpu"\|"target-features"' <<<"$ir"; then echo 'bitcode carries "target-cpu"/"target-features"'; fail=1; fi
undefined=$(grep '^declare' <<<"$ir" | grep -v '@llvm\.' || true)
if [[ -n "$undefined" ]]; then echo "calls outside the runtime:"; echo "$undefined"; fail=1; fi
# Reports must be noinline (their return address is the instrumented caller).
if ! grep -E '^define .*@__asan_report_load4\(' <<<"$ir" | grep -q '#'; then echo "no attributes on __asan_report_load4"; fail=1; fi
attrs=$(grep -E '^define .*@__asan_report_load4\(' <<<"$ir" | sed -E 's/.* #([0-9]+) .*/\1/')
grep -E "^attributes #$attrs = " <<<"$ir" | grep -q noinline || { echo "__asan_report_load4 is not noinline"; fail=1; }
[[ $fail -eq 0 ]] && echo "ok"
exit $fail
