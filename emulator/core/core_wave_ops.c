/* ldsan emulator core: cross-lane operations of one wave (see core_wave_ops.h).
 * Definitions from the AMD Instinct CDNA3 ISA reference (DS_BPERMUTE_B32,
 * DS_PERMUTE_B32, V_READFIRSTLANE_B32, V_READLANE_B32) and LLVM's AMDGPU
 * intrinsics (llvm.amdgcn.ballot: the exec lanes whose condition is true). */
#include "core_wave_ops.h"

void ldsan_emu_wave_apply(uint32_t op, uint64_t exec, const uint64_t *val, const uint32_t *arg, uint64_t *res) {
  uint64_t out = 0, m;
  uint64_t tmp[LDSAN_EMU_WAVE_LANES];
  switch (op) {
  case LDSAN_EMU_WAVE_BALLOT:
    for (m = exec; m; m &= m - 1) {
      unsigned i = (unsigned)__builtin_ctzll(m);
      if (val[i] & 1) out |= 1ull << i;
    }
    break;
  case LDSAN_EMU_WAVE_FIRSTLANE:
    out = exec ? val[__builtin_ctzll(exec)] : 0;
    break;
  case LDSAN_EMU_WAVE_READLANE: { /* the lane operand is uniform (an SGPR): the first lane's */
    unsigned src = exec ? arg[__builtin_ctzll(exec)] % LDSAN_EMU_WAVE_LANES : 0;
    out = exec >> src & 1 ? val[src] : 0;
    break;
  }
  case LDSAN_EMU_WAVE_BPERMUTE: /* "EXEC is applied to the source VGPR reads" */
    for (m = exec; m; m &= m - 1) {
      unsigned i = (unsigned)__builtin_ctzll(m), src = arg[i] / 4 % LDSAN_EMU_WAVE_LANES;
      res[i] = exec >> src & 1 ? (uint32_t)val[src] : 0;
    }
    return;
  case LDSAN_EMU_WAVE_PERMUTE: /* disabled sources propagate nothing; the highest source wins */
    for (unsigned i = 0; i < LDSAN_EMU_WAVE_LANES; i++) tmp[i] = 0;
    for (m = exec; m; m &= m - 1) {
      unsigned i = (unsigned)__builtin_ctzll(m);
      tmp[arg[i] / 4 % LDSAN_EMU_WAVE_LANES] = (uint32_t)val[i];
    }
    for (m = exec; m; m &= m - 1) {
      unsigned i = (unsigned)__builtin_ctzll(m);
      res[i] = tmp[i];
    }
    return;
  default: /* LDSAN_EMU_WAVE_SYNC */
    break;
  }
  for (m = exec; m; m &= m - 1) res[__builtin_ctzll(m)] = out;
}

uint64_t ldsan_emu_wave_alone(uint32_t op, uint32_t lane, uint64_t val, uint32_t arg) {
  uint64_t v[LDSAN_EMU_WAVE_LANES], r[LDSAN_EMU_WAVE_LANES];
  uint32_t a[LDSAN_EMU_WAVE_LANES];
  lane %= LDSAN_EMU_WAVE_LANES;
  v[lane] = val;
  a[lane] = arg;
  r[lane] = 0;
  ldsan_emu_wave_apply(op, 1ull << lane, v, a, r);
  return r[lane];
}
