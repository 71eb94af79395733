# One kernel's static resources from a code object's assembly (-S), as
#   "sgpr vgpr agpr scratch occupancy instrs"
# from the .amdhsa metadata (VGPRs: all the kernel allocates, AGPRs included,
# as the hardware counts them for occupancy; targets without AGPRs: 0), the
# compiler's "; Occupancy:" note and the kernel's own instructions (ldsan's
# block paths are inlined into it: its code size).
# Usage: awk -v k=<mangled kernel> -f kernel_line.awk <file.s>
# Shared by static_cost.sh and lds_only_cost.sh.
$1 == "-" && $2 ~ /^\./ { entry = 1; agpr = $2 == ".agpr_count:" ? $3 : 0; mine = 0; next }
entry && $1 == ".name:" && index($0, "    .name:") == 1 && $2 == k { mine = 1; a = agpr }
mine && $1 == ".private_segment_fixed_size:" { sc = $2 }
mine && $1 == ".sgpr_count:" { sg = $2 }
mine && $1 == ".vgpr_count:" { vg = $2; mine = 0 }
$1 == k ":" { in_fn = 1; in_body = 1; next }
in_body && /^\.Lfunc_end/ { in_body = 0 }
in_body && /^[ \t]+[a-z_][a-z0-9_]*/ && $1 !~ /^\./ { n++ }
in_fn && $1 == ";" && $2 == "Occupancy:" { occ = $3; in_fn = 0 }
END {
  if (sg == "") { print "kernel_line.awk: no kernel " k " in the metadata" > "/dev/stderr"; exit 1 }
  printf "%s %s %s %s %s %s\n", sg, vg, a, sc, occ, n
}
