/* Unit test of the emulator's cross-lane operations (emulator/core/core_wave_ops.c):
 * ballot, readfirstlane, readlane, ds_bpermute_b32, ds_permute_b32, sync and
 * ldsan_emu_wave_alone, over full, half and sparse exec masks. Every expected
 * value is written by hand from the AMD CDNA3 ISA definitions (bpermute: lane
 * addr/4 % 64, 0 from an inactive source; permute: highest active source wins,
 * 0 where none writes; 32-bit data) and llvm.amdgcn.ballot, not recomputed
 * by a second implementation. Lanes outside exec must keep their res value.
 * Prints "wave_ops: FAIL <what>: got X expected Y" per failure; exit 1 if any. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "../../emulator/core/core_wave_ops.h"

#define N LDSAN_EMU_WAVE_LANES
#define SENTINEL 0xdeadbeefcafef00dull
#define ALL (~0ull)
#define LOW32 0x00000000ffffffffull

static unsigned checks, failures;
static uint64_t val[N], res[N];
static uint32_t arg[N];

static void check(const char *what, unsigned lane, uint64_t got, uint64_t expected) {
  checks++;
  if (got == expected) return;
  failures++;
  printf("wave_ops: FAIL %s (lane %u): got 0x%" PRIx64 " expected 0x%" PRIx64 "\n", what, lane, got, expected);
}

/* Runs op with val/arg as set up, res pre-filled with SENTINEL. */
static void run(uint32_t op, uint64_t exec) {
  for (unsigned i = 0; i < N; i++) res[i] = SENTINEL;
  ldsan_emu_wave_apply(op, exec, val, arg, res);
}

/* Checks that the lanes outside exec were not written. */
static void check_untouched(const char *what, uint64_t exec) {
  for (unsigned i = 0; i < N; i++)
    if (!(exec >> i & 1)) check(what, i, res[i], SENTINEL);
}

static void test_bpermute(void) {
  /* Rotate by one over the full wave: lane i reads lane (i+1) % 64. */
  for (unsigned i = 0; i < N; i++) val[i] = 1000 + i, arg[i] = 4 * ((i + 1) % N);
  run(LDSAN_EMU_WAVE_BPERMUTE, ALL);
  for (unsigned i = 0; i < 63; i++) check("bpermute rotate", i, res[i], 1001 + i);
  check("bpermute rotate wraps", 63, res[63], 1000);

  /* Half wave (lanes 0..31): lane 31 reads lane 32 (inactive) -> 0; 32..63 untouched. */
  run(LDSAN_EMU_WAVE_BPERMUTE, LOW32);
  check("bpermute half-wave", 0, res[0], 1001);
  check("bpermute half-wave", 30, res[30], 1031);
  check("bpermute from inactive lane", 31, res[31], 0);
  check_untouched("bpermute half-wave untouched", LOW32);

  /* High address bits are ignored; the low 2 bits too. */
  arg[0] = 0x10000 + 4 * 5;
  arg[1] = 4 * 7 + 3;
  arg[2] = 4 * 64 + 4 * 9; /* 73 % 64 = lane 9 */
  run(LDSAN_EMU_WAVE_BPERMUTE, ALL);
  check("bpermute addr 0x10000+4*5", 0, res[0], 1005);
  check("bpermute addr 4*7+3", 1, res[1], 1007);
  check("bpermute addr 4*73", 2, res[2], 1009);

  /* Data is 32 bits: the upper half of val is dropped. */
  val[10] = 0x123456789abcdef0ull;
  arg[3] = 4 * 10;
  run(LDSAN_EMU_WAVE_BPERMUTE, ALL);
  check("bpermute data truncated to 32 bits", 3, res[3], 0x9abcdef0ull);
}

static void test_permute(void) {
  /* Lanes 0..3 active. Lanes 1 and 3 both write lane 2 (3 wins); lane 0 writes
   * lane 1 with a value above 32 bits; lane 2 writes lane 2 too (lower, loses);
   * nobody writes lanes 0 and 3 -> 0. Inactive lane 4 would write lane 0. */
  for (unsigned i = 0; i < N; i++) val[i] = 0, arg[i] = 0;
  val[0] = 0xabcdef0011223344ull, arg[0] = 4 * 1;
  val[1] = 111, arg[1] = 4 * 2;
  val[2] = 222, arg[2] = 4 * 2 + 0x40000; /* high bits ignored: lane 2 */
  val[3] = 333, arg[3] = 4 * 2 + 1;       /* low bits ignored: lane 2 */
  val[4] = 444, arg[4] = 0;               /* inactive: propagates nothing */
  run(LDSAN_EMU_WAVE_PERMUTE, 0xfull);
  check("permute nobody writes", 0, res[0], 0);
  check("permute data truncated to 32 bits", 1, res[1], 0x11223344ull);
  check("permute highest source wins", 2, res[2], 333);
  check("permute nobody writes", 3, res[3], 0);
  check_untouched("permute untouched", 0xfull);

  /* Full-wave reverse: source i writes lane 63-i. */
  for (unsigned i = 0; i < N; i++) val[i] = 500 + i, arg[i] = 4 * (63 - i);
  run(LDSAN_EMU_WAVE_PERMUTE, ALL);
  check("permute reverse", 0, res[0], 563);
  check("permute reverse", 40, res[40], 523);
  check("permute reverse", 63, res[63], 500);
}

static void test_ballot(void) {
  /* Condition true on even lanes and lane 63; exec = lanes 0..7 and 60..63. */
  uint64_t exec = 0xffull | 0xfull << 60;
  for (unsigned i = 0; i < N; i++) val[i] = (i % 2 == 0) || i == 63;
  val[1] = 2; /* only bit 0 is the condition */
  run(LDSAN_EMU_WAVE_BALLOT, exec);
  uint64_t want = 0x55ull | 1ull << 60 | 1ull << 62 | 1ull << 63;
  for (unsigned i = 0; i < N; i++)
    if (exec >> i & 1) check("ballot partial exec", i, res[i], want);
  check_untouched("ballot untouched", exec);

  run(LDSAN_EMU_WAVE_BALLOT, ALL);
  check("ballot full wave", 9, res[9], 0xd555555555555555ull);
}

static void test_lanes(void) {
  uint64_t exec = ~0ull << 37; /* lowest active lane: 37 */
  for (unsigned i = 0; i < N; i++) val[i] = 0x100000000ull * i + 7, arg[i] = 0;
  run(LDSAN_EMU_WAVE_FIRSTLANE, exec);
  check("readfirstlane lane 37", 37, res[37], 0x2500000007ull);
  check("readfirstlane lane 63", 63, res[63], 0x2500000007ull);
  check_untouched("readfirstlane untouched", exec);

  /* readlane: the lane operand of the first active lane (37) is used, % 64. */
  arg[37] = 64 + 50, arg[38] = 40;
  run(LDSAN_EMU_WAVE_READLANE, exec);
  check("readlane uniform lane 50", 38, res[38], 0x3200000007ull);
  check("readlane uniform lane 50", 63, res[63], 0x3200000007ull);
  arg[37] = 3; /* inactive lane -> 0 */
  run(LDSAN_EMU_WAVE_READLANE, exec);
  check("readlane of inactive lane", 40, res[40], 0);
  check_untouched("readlane untouched", exec);
}

static void test_sync(void) {
  for (unsigned i = 0; i < N; i++) val[i] = i + 1, arg[i] = 0;
  run(LDSAN_EMU_WAVE_SYNC, LOW32);
  check("sync writes 0", 0, res[0], 0);
  check("sync writes 0", 31, res[31], 0);
  check_untouched("sync untouched", LOW32);
}

static void test_alone(void) {
  check("alone ballot true", 5, ldsan_emu_wave_alone(LDSAN_EMU_WAVE_BALLOT, 5, 1, 0), 1ull << 5);
  check("alone ballot false", 5, ldsan_emu_wave_alone(LDSAN_EMU_WAVE_BALLOT, 5, 0, 0), 0);
  check("alone readfirstlane", 9, ldsan_emu_wave_alone(LDSAN_EMU_WAVE_FIRSTLANE, 9, 0x1234567890ull, 0), 0x1234567890ull);
  check("alone bpermute own lane", 12, ldsan_emu_wave_alone(LDSAN_EMU_WAVE_BPERMUTE, 12, 77, 4 * 12), 77);
  check("alone bpermute other lane", 12, ldsan_emu_wave_alone(LDSAN_EMU_WAVE_BPERMUTE, 12, 77, 4 * 13), 0);
  check("alone readlane own lane", 20, ldsan_emu_wave_alone(LDSAN_EMU_WAVE_READLANE, 20, 88, 20), 88);
  check("alone permute to self", 20, ldsan_emu_wave_alone(LDSAN_EMU_WAVE_PERMUTE, 20, 99, 4 * 20), 99);
}

int main(void) {
  test_bpermute();
  test_permute();
  test_ballot();
  test_lanes();
  test_sync();
  test_alone();
  if (failures) {
    printf("wave_ops: %u of %u checks failed\n", failures, checks);
    return 1;
  }
  printf("wave_ops: %u checks passed\n", checks);
  return 0;
}
