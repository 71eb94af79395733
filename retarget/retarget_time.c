/* ldsan-emu-retarget's per-phase timing: with LDSAN_EMU_TIME set (not "0")
 * each step of retarget_main.c prints the CPU time (user + system) it took,
 *   ldsan-emu-retarget: time: <input>: <step> <seconds> s
 * and a total at the end; LDSAN_EMU_TIME=passes adds LLVM's -time-passes
 * (a table per optimization run, on stderr). `ldsan-cc --emulate` passes the
 * variable on to the tool and times its own steps the same way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "retarget_time.h"

static int rt_time_on;
static double rt_time_last, rt_time_first;
static const char *rt_time_input;

static double cpu_seconds(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
         ru.ru_stime.tv_usec / 1e6;
}

int rt_time_init(const char *input) {
  const char *v = getenv("LDSAN_EMU_TIME");
  rt_time_on = v && *v && strcmp(v, "0") != 0;
  rt_time_input = input;
  rt_time_first = rt_time_last = cpu_seconds();
  return rt_time_on && !strcmp(v, "passes");
}

void rt_time_step(const char *step) {
  if (!rt_time_on) return;
  double now = cpu_seconds();
  fprintf(stderr, "ldsan-emu-retarget: time: %s: %-34s %8.3f s\n", rt_time_input, step, now - rt_time_last);
  rt_time_last = now;
}

void rt_time_total(void) {
  if (!rt_time_on) return;
  fprintf(stderr, "ldsan-emu-retarget: time: %s: %-34s %8.3f s\n", rt_time_input, "total",
          cpu_seconds() - rt_time_first);
}
