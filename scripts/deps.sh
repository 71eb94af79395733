#!/usr/bin/env bash
# Installs the Debian packages ldsan needs, only those missing. Safe to rerun.
set -euo pipefail
pkgs=(clang-22 clang-tools-22 llvm-22 llvm-22-dev llvm-22-tools lld-22 libclang-rt-22-dev
      libamdhip64-dev rocm-device-libs libhsa-runtime-dev libomp-22-dev make python3 python3-psutil cmake
      gdb)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0
echo "ldsan: installing missing packages: ${missing[*]}" >&2
sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
if ! $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >/tmp/ldsan-deps.log 2>&1; then
  $sudo apt-get update >/tmp/ldsan-deps-update.log 2>&1 || true
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >/tmp/ldsan-deps.log 2>&1 || {
    echo "ldsan: error: could not install ${missing[*]} (see /tmp/ldsan-deps.log); install them with apt-get and rerun" >&2; exit 1; }
fi
