/* ldsan-emu-retarget's per-phase CPU times (LDSAN_EMU_TIME; retarget_time.c). */
#ifndef LDSAN_EMU_RETARGET_TIME_H
#define LDSAN_EMU_RETARGET_TIME_H
/* Reads LDSAN_EMU_TIME and starts the clock; returns 1 when LLVM's
 * -time-passes is wanted too (LDSAN_EMU_TIME=passes). */
int rt_time_init(const char *input);
/* Prints the CPU time since the previous step (or init) under `step`. */
void rt_time_step(const char *step);
/* Prints the CPU time since init. */
void rt_time_total(void);
#endif
