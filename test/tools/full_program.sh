#!/usr/bin/env bash
# `ldsan-cc app.hip -o app` makes a normal HIP executable for a real GPU: the
# host part links against libamdhip64, and the embedded gfx90a:xnack+ code
# object has every symbol defined and ldsan's LDS descriptors.
set -euo pipefail
source "$(dirname "$0")/driver_lib.sh"
cat > "$tmp/app.hip" <<'HIP'
#include <hip/hip_runtime.h>
__global__ void scale(float *x, int n) {
  __shared__ float tile[256];
  tile[threadIdx.x] = x[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  if (blockIdx.x * 256 + threadIdx.x < (unsigned)n) x[blockIdx.x * 256 + threadIdx.x] = 2 * tile[255 - threadIdx.x];
}
int main() {
  float *d; hipMalloc(&d, 1024 * sizeof(float));
  hipLaunchKernelGGL(scale, dim3(4), dim3(256), 0, 0, d, 1024);
  return hipDeviceSynchronize() != hipSuccess;
}
HIP
"$cc" -O2 "$tmp/app.hip" -o "$tmp/app"
[[ -x "$tmp/app" ]] || { echo "no executable produced"; exit 1; }
dynsyms="$(nm -D --undefined-only "$tmp/app")"
grep -q hipLaunchKernel <<<"$dynsyms" || { echo "host part does not call hipLaunchKernel"; exit 1; }
extract_code_object "$tmp/app" gfx90a:xnack+ "$tmp/co"
check_all_symbols_defined "$tmp/co"
dump_lds_descriptors "$tmp/co" >/dev/null
# The HSA tools library comes with the executable: a DT_NEEDED entry that the
# executable's RUNPATH resolves, exporting what ROCr looks for.
dyn="$(llvm-readelf-$v -d "$tmp/app")"
grep -q 'NEEDED.*\[libldsan-host.so\]' <<<"$dyn" || { echo "executable does not depend on libldsan-host.so:"; echo "$dyn"; exit 1; }
resolved="$(ldd "$tmp/app" | grep libldsan-host.so || true)"
grep -q "$build/lib/libldsan-host.so" <<<"$resolved" || { echo "libldsan-host.so does not resolve to the build: $resolved"; exit 1; }
tool_syms="$(nm -D --defined-only "$build/lib/libldsan-host.so")"
for s in OnLoad OnUnload HSA_AMD_TOOL_PRIORITY; do
  grep -q " $s\$" <<<"$tool_syms" || { echo "libldsan-host.so does not export $s"; exit 1; }
done
# Device-only and compile-only commands link nothing, so they get no library.
"$cc" -O2 -c "$tmp/app.hip" -o "$tmp/app.o" -v 2>"$tmp/cmd"
if grep -q 'libldsan-host.so' "$tmp/cmd"; then echo "-c links libldsan-host.so"; exit 1; fi
echo "ok: executable with a complete gfx90a:xnack+ code object and the HSA tools library"
