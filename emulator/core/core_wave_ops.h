/* ldsan emulator core: what the cross-lane operations of a wave (64 lanes,
 * or 32 on RDNA targets) compute, given the operands of the lanes that execute them together (the
 * exec mask). Pure functions, no scheduler state: the scheduler
 * (core_sched.c) gathers a wave's operands and scatters the results; the
 * unit test (test/emulator/core/wave_ops.c) checks them against the CDNA ISA
 * definitions. The operations and their operands: include/ldsan/emu/wave_ops.h. */
#ifndef LDSAN_EMU_CORE_WAVE_OPS_H
#define LDSAN_EMU_CORE_WAVE_OPS_H

#include <stdint.h>

#include "ldsan/emu/wave_ops.h"

/* Computes op for the lanes in exec (bit i: lane i takes part) of a wave of
 * `lanes` lanes (32 or 64) from their operands val[i], arg[i]; writes res[i]
 * for those lanes only. */
void ldsan_emu_wave_apply(uint32_t op, uint32_t lanes, uint64_t exec, const uint64_t *val, const uint32_t *arg,
                          uint64_t *res);

/* The same operation executed by lane `lane` alone (exec = that lane): what
 * a kernel that does not run its waves in lockstep gets. */
uint64_t ldsan_emu_wave_alone(uint32_t op, uint32_t lanes, uint32_t lane, uint64_t val, uint32_t arg);

#endif /* LDSAN_EMU_CORE_WAVE_OPS_H */
