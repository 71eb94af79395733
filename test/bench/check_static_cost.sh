#!/usr/bin/env bash
# Pins the static device cost of ldsan's reference kernels (issue #10): for the
# target given, each of test/bench/reference_kernels.hip's kernels must need no
# more SGPRs, VGPRs (AGPRs included), scratch and instructions (ldsan's block
# paths are inlined into every kernel), and reach no lower occupancy, than the
# bounds below, which are what this ldsan's runtime gives today
# (test/bench/static_cost.sh prints the full table). A change that makes a
# sanitized kernel heavier fails here; one that makes it lighter should lower
# the bounds. Compile-time check: no GPU needed.
# Usage: check_static_cost.sh <target>
set -euo pipefail
target="$1"
here="$(cd "$(dirname "$0")" && pwd)"
#          max SGPR  max VGPR  max scratch  min occupancy  max instructions
case "$target" in
  gfx90a*) bounds=(   72        46        0            8              3720 ) ;;
  *)       bounds=(   70        44        0            8              3580 ) ;;
esac
fail=0
for k in _Z6ref_1kPf _Z7ref_40kPf; do
  read -r sg vg ag sc oc n <<<"$("$here/static_cost.sh" --kernel-line "$target" "$k")"
  line="$k on $target: SGPR $sg, VGPR $vg (AGPR $ag), scratch $sc, occupancy $oc, $n instructions"
  if (( sg > bounds[0] || vg > bounds[1] || sc > bounds[2] || oc < bounds[3] || n > bounds[4] )); then
    echo "FAIL: $line; bounds: SGPR <= ${bounds[0]}, VGPR <= ${bounds[1]}, scratch <= ${bounds[2]}, occupancy >= ${bounds[3]}, instructions <= ${bounds[4]}"
    fail=1
  else
    echo "ok: $line"
  fi
done
exit $fail
