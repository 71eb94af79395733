/* ldsan emulator core: what the cross-lane operations of a 64-lane wave
 * compute, given the operands of the lanes that execute them together (the
 * exec mask). Pure functions, no scheduler state: the scheduler
 * (core_sched.c) gathers a wave's operands and scatters the results; the
 * unit test (test/emucore/wave_ops.c) checks them against the CDNA ISA
 * definitions. */
#ifndef LDSAN_EMU_CORE_WAVE_OPS_H
#define LDSAN_EMU_CORE_WAVE_OPS_H

#include <stdint.h>

#define LDSAN_EMU_WAVE_LANES 64u

/* The operation a lane stopped at (the retarget tool passes it). */
enum ldsan_emu_wave_op {
  LDSAN_EMU_WAVE_SYNC = 0,       /* no data: wave.barrier, a memory access */
  LDSAN_EMU_WAVE_BALLOT = 1,     /* val: condition (bit 0) -> mask of exec lanes with it set */
  LDSAN_EMU_WAVE_FIRSTLANE = 2,  /* val -> val of the lowest exec lane */
  LDSAN_EMU_WAVE_READLANE = 3,   /* val, arg: lane -> val of lane arg % 64 (0 if not in exec) */
  LDSAN_EMU_WAVE_BPERMUTE = 4,   /* val: data, arg: byte address -> data of lane addr/4 % 64 (0 if not in exec) */
  LDSAN_EMU_WAVE_PERMUTE = 5,    /* val: data, arg: byte address -> lane addr/4 % 64 gets data; highest source wins; 0 if none */
  LDSAN_EMU_WAVE_OPS
};

/* Computes op for the lanes in exec (bit i: lane i takes part) from their
 * operands val[i], arg[i]; writes res[i] for those lanes only. */
void ldsan_emu_wave_apply(uint32_t op, uint64_t exec, const uint64_t *val, const uint32_t *arg, uint64_t *res);

/* The same operation executed by lane `lane` alone (exec = that lane): what
 * a kernel that does not run its waves in lockstep gets. */
uint64_t ldsan_emu_wave_alone(uint32_t op, uint32_t lane, uint64_t val, uint32_t arg);

#endif /* LDSAN_EMU_CORE_WAVE_OPS_H */
