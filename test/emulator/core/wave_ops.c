/* Unit test of the emulator's cross-lane operations (emulator/core/core_wave_ops.c):
 * ballot, readfirstlane, readlane, ds_bpermute_b32, ds_permute_b32, DPP
 * (update.dpp / mov.dpp), ds_swizzle_b32, sync and ldsan_emu_wave_alone, over
 * full, half and sparse exec masks. Every expected value is written by hand
 * from the AMD CDNA3 ISA definitions (bpermute: lane addr/4 % 64, 0 from an
 * inactive source; permute: highest active source wins, 0 where none writes;
 * 32-bit data; DPP: the DPP_CTRL enumeration, ROW_MASK / BANK_MASK disable the
 * destination write, BC = 1 writes 0 for an invalid source, BC = 0 keeps old;
 * ds_swizzle: quad and bit-mask modes, 0 from an inactive source) and
 * llvm.amdgcn.ballot, not recomputed by a second implementation: the tests
 * name the source lane they expect. Lanes outside exec must keep their res
 * value. Prints "wave_ops: FAIL <what>: got X expected Y" per failure; exit 1
 * if any. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "core_wave_ops.h"

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

/* Lanes of the wave run() executes on (64; the wave32 test sets 32). */
static uint32_t lanes = 64;

/* Runs op with val/arg as set up, res pre-filled with SENTINEL. */
static void run(uint32_t op, uint64_t exec) {
  for (unsigned i = 0; i < N; i++) res[i] = SENTINEL;
  ldsan_emu_wave_apply(op, lanes, exec, val, arg, res);
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
  check("alone ballot true", 5, ldsan_emu_wave_alone(LDSAN_EMU_WAVE_BALLOT, 64, 5, 1, 0), 1ull << 5);
  check("alone ballot false", 5, ldsan_emu_wave_alone(LDSAN_EMU_WAVE_BALLOT, 64, 5, 0, 0), 0);
  check("alone readfirstlane", 9, ldsan_emu_wave_alone(LDSAN_EMU_WAVE_FIRSTLANE, 64, 9, 0x1234567890ull, 0), 0x1234567890ull);
  check("alone bpermute own lane", 12, ldsan_emu_wave_alone(LDSAN_EMU_WAVE_BPERMUTE, 64, 12, 77, 4 * 12), 77);
  check("alone bpermute other lane", 12, ldsan_emu_wave_alone(LDSAN_EMU_WAVE_BPERMUTE, 64, 12, 77, 4 * 13), 0);
  check("alone readlane own lane", 20, ldsan_emu_wave_alone(LDSAN_EMU_WAVE_READLANE, 64, 20, 88, 20), 88);
  check("alone permute to self", 20, ldsan_emu_wave_alone(LDSAN_EMU_WAVE_PERMUTE, 64, 20, 99, 4 * 20), 99);

  /* DPP alone: only the lane itself is in exec. quad_perm [0,1,2,3] (0xe4)
   * reads itself; [1,0,3,2] (0xb1) reads lane 8 of the quad of lane 9: not in
   * exec, so old (BC = 0) or 0 (BC = 1); a masked-off row keeps old. */
  uint64_t v = (uint64_t)0x80000077u << 32 | 0x1234u;
  check("alone dpp identity", 9, ldsan_emu_wave_alone(LDSAN_EMU_WAVE_DPP, 64, 9, v, 0xe4u | 0xfu << 9 | 0xfu << 13), 0x1234);
  check("alone dpp inactive source keeps old", 9,
        ldsan_emu_wave_alone(LDSAN_EMU_WAVE_DPP, 64, 9, v, 0xb1u | 0xfu << 9 | 0xfu << 13), 0x80000077u);
  check("alone dpp inactive source bound_ctrl", 9,
        ldsan_emu_wave_alone(LDSAN_EMU_WAVE_DPP, 64, 9, v, 0xb1u | 0xfu << 9 | 0xfu << 13 | 1u << 17), 0);
  check("alone dpp row masked off", 9,
        ldsan_emu_wave_alone(LDSAN_EMU_WAVE_DPP, 64, 9, v, 0xe4u | 0xeu << 9 | 0xfu << 13 | 1u << 17), 0x80000077u);
  /* swizzle alone: and_mask 0x1f reads itself; xor 1 reads lane 8 (inactive) -> 0. */
  check("alone swizzle identity", 9, ldsan_emu_wave_alone(LDSAN_EMU_WAVE_SWIZZLE, 64, 9, v, 0x001f), 0x1234);
  check("alone swizzle inactive source", 9, ldsan_emu_wave_alone(LDSAN_EMU_WAVE_SWIZZLE, 64, 9, v, 0x041f), 0);
}

/* ---- DPP ---------------------------------------------------------------- */

/* Operands: src_i = SRC(i), old_i = OLD(i) (bit 31 set: the result must be
 * the 32-bit value, not sign-extended). */
#define SRC(i) (0x100u + (i))
#define OLD(i) (0x80005000u + (i))
#define ROWS_ALL 0xfu
#define BANKS_ALL 0xfu

/* The documented encoding of arg, written out (not LDSAN_EMU_DPP_ARG). */
static uint32_t dpp_arg(uint32_t ctrl, uint32_t row_mask, uint32_t bank_mask, int bound_ctrl) {
  return ctrl | row_mask << 9 | bank_mask << 13 | (uint32_t)(bound_ctrl ? 1 : 0) << 17;
}

/* Runs update.dpp on exec with every lane's controls = ctl. */
static void run_dpp(uint64_t exec, uint32_t ctl) {
  for (unsigned i = 0; i < N; i++) val[i] = (uint64_t)OLD(i) << 32 | SRC(i), arg[i] = ctl;
  run(LDSAN_EMU_WAVE_DPP, exec);
}

static void test_dpp_arg_macro(void) {
  check("LDSAN_EMU_DPP_ARG encoding", 0, LDSAN_EMU_DPP_ARG(0x142, 0xa, 0x5, 1), 0x142u | 0xau << 9 | 0x5u << 13 | 1u << 17);
  check("LDSAN_EMU_DPP_ARG encoding", 0, LDSAN_EMU_DPP_ARG(0xb1, 0xf, 0xf, 0), 0x1feb1u);
}

static void test_dpp_quad_perm(void) {
  /* quad_perm:[1,0,3,2] = 1 | 0 << 2 | 3 << 4 | 2 << 6 = 0xb1: swap pairs within each quad. */
  run_dpp(ALL, dpp_arg(0xb1, ROWS_ALL, BANKS_ALL, 0));
  check("dpp quad_perm [1,0,3,2]", 0, res[0], SRC(1));
  check("dpp quad_perm [1,0,3,2]", 1, res[1], SRC(0));
  check("dpp quad_perm [1,0,3,2]", 2, res[2], SRC(3));
  check("dpp quad_perm [1,0,3,2]", 3, res[3], SRC(2));
  check("dpp quad_perm [1,0,3,2]", 61, res[61], SRC(60));
  check("dpp quad_perm [1,0,3,2]", 62, res[62], SRC(63));
  /* quad_perm:[3,3,3,3] = 0xff: broadcast the quad's last lane. */
  run_dpp(ALL, dpp_arg(0xff, ROWS_ALL, BANKS_ALL, 0));
  check("dpp quad_perm [3,3,3,3]", 20, res[20], SRC(23));
  check("dpp quad_perm [3,3,3,3]", 23, res[23], SRC(23));
}

static void test_dpp_row_shift(void) {
  /* row_shr:1 (0x111): lane n reads n - 1 of its row; lane 0 of each row has
   * no source: keeps old with bound_ctrl false, 0 with bound_ctrl true. */
  run_dpp(ALL, dpp_arg(0x111, ROWS_ALL, BANKS_ALL, 0));
  check("dpp row_shr:1", 1, res[1], SRC(0));
  check("dpp row_shr:1", 15, res[15], SRC(14));
  check("dpp row_shr:1", 17, res[17], SRC(16));
  check("dpp row_shr:1 row start keeps old", 0, res[0], OLD(0));
  check("dpp row_shr:1 row start keeps old", 16, res[16], OLD(16));
  check("dpp row_shr:1 row start keeps old", 48, res[48], OLD(48));
  run_dpp(ALL, dpp_arg(0x111, ROWS_ALL, BANKS_ALL, 1));
  check("dpp row_shr:1 bound_ctrl", 0, res[0], 0);
  check("dpp row_shr:1 bound_ctrl", 16, res[16], 0);
  check("dpp row_shr:1 bound_ctrl", 32, res[32], 0);
  check("dpp row_shr:1 bound_ctrl", 5, res[5], SRC(4));

  /* row_shr:15 (0x11f): only lane 15 of each row has a source (lane 0). */
  run_dpp(ALL, dpp_arg(0x11f, ROWS_ALL, BANKS_ALL, 0));
  check("dpp row_shr:15", 47, res[47], SRC(32));
  check("dpp row_shr:15", 46, res[46], OLD(46));

  /* row_shl:2 (0x102): lane n reads n + 2 of its row; lanes 14, 15 of each row have none. */
  run_dpp(ALL, dpp_arg(0x102, ROWS_ALL, BANKS_ALL, 0));
  check("dpp row_shl:2", 0, res[0], SRC(2));
  check("dpp row_shl:2", 13, res[13], SRC(15));
  check("dpp row_shl:2", 29, res[29], SRC(31));
  check("dpp row_shl:2 row end keeps old", 14, res[14], OLD(14));
  check("dpp row_shl:2 row end keeps old", 15, res[15], OLD(15));
  check("dpp row_shl:2 row end keeps old", 30, res[30], OLD(30));
  run_dpp(ALL, dpp_arg(0x102, ROWS_ALL, BANKS_ALL, 1));
  check("dpp row_shl:2 bound_ctrl", 14, res[14], 0);
  check("dpp row_shl:2 bound_ctrl", 63, res[63], 0);
  check("dpp row_shl:2 bound_ctrl", 61, res[61], SRC(63));

  /* row_ror:3 (0x123): lane n reads n - 3 of its row, wrapping (n + 13). */
  run_dpp(ALL, dpp_arg(0x123, ROWS_ALL, BANKS_ALL, 1));
  check("dpp row_ror:3", 0, res[0], SRC(13));
  check("dpp row_ror:3", 2, res[2], SRC(15));
  check("dpp row_ror:3", 3, res[3], SRC(0));
  check("dpp row_ror:3", 15, res[15], SRC(12));
  check("dpp row_ror:3", 16, res[16], SRC(29));
  check("dpp row_ror:3", 50, res[50], SRC(63));
}

static void test_dpp_wave_shift(void) {
  /* wave_shr:1 (0x138): lane n reads n - 1 across rows; lane 0 has no source. */
  run_dpp(ALL, dpp_arg(0x138, ROWS_ALL, BANKS_ALL, 0));
  check("dpp wave_shr:1", 1, res[1], SRC(0));
  check("dpp wave_shr:1 crosses rows", 16, res[16], SRC(15));
  check("dpp wave_shr:1", 63, res[63], SRC(62));
  check("dpp wave_shr:1 lane 0 keeps old", 0, res[0], OLD(0));
  run_dpp(ALL, dpp_arg(0x138, ROWS_ALL, BANKS_ALL, 1));
  check("dpp wave_shr:1 bound_ctrl", 0, res[0], 0);
  /* wave_shl:1 (0x130): lane n reads n + 1; lane 63 has no source. */
  run_dpp(ALL, dpp_arg(0x130, ROWS_ALL, BANKS_ALL, 1));
  check("dpp wave_shl:1 crosses rows", 15, res[15], SRC(16));
  check("dpp wave_shl:1 bound_ctrl", 63, res[63], 0);
  /* wave_rol:1 (0x134): lane n reads n + 1, lane 63 reads lane 0. */
  run_dpp(ALL, dpp_arg(0x134, ROWS_ALL, BANKS_ALL, 1));
  check("dpp wave_rol:1", 0, res[0], SRC(1));
  check("dpp wave_rol:1", 62, res[62], SRC(63));
  check("dpp wave_rol:1 wraps", 63, res[63], SRC(0));
  /* wave_ror:1 (0x13c): lane n reads n - 1, lane 0 reads lane 63. */
  run_dpp(ALL, dpp_arg(0x13c, ROWS_ALL, BANKS_ALL, 1));
  check("dpp wave_ror:1 wraps", 0, res[0], SRC(63));
  check("dpp wave_ror:1", 32, res[32], SRC(31));
}

static void test_dpp_mirror(void) {
  /* row_mirror (0x140): lane n reads 15 - (n & 15) of its row. */
  run_dpp(ALL, dpp_arg(0x140, ROWS_ALL, BANKS_ALL, 0));
  check("dpp row_mirror", 0, res[0], SRC(15));
  check("dpp row_mirror", 15, res[15], SRC(0));
  check("dpp row_mirror", 20, res[20], SRC(27));
  check("dpp row_mirror", 63, res[63], SRC(48));
  /* row_half_mirror (0x141): lane n reads 7 - (n & 7) of its half row. */
  run_dpp(ALL, dpp_arg(0x141, ROWS_ALL, BANKS_ALL, 0));
  check("dpp row_half_mirror", 0, res[0], SRC(7));
  check("dpp row_half_mirror", 7, res[7], SRC(0));
  check("dpp row_half_mirror", 8, res[8], SRC(15));
  check("dpp row_half_mirror", 12, res[12], SRC(11));
  check("dpp row_half_mirror", 45, res[45], SRC(42));
}

static void test_dpp_row_bcast(void) {
  /* row_bcast:15 (0x142): rows 1, 2, 3 receive lane 15, 31, 47; row 0 has no
   * source (keeps old with bound_ctrl false). */
  run_dpp(ALL, dpp_arg(0x142, ROWS_ALL, BANKS_ALL, 0));
  check("dpp row_bcast:15 row 0 keeps old", 0, res[0], OLD(0));
  check("dpp row_bcast:15 row 0 keeps old", 15, res[15], OLD(15));
  check("dpp row_bcast:15", 16, res[16], SRC(15));
  check("dpp row_bcast:15", 31, res[31], SRC(15));
  check("dpp row_bcast:15", 32, res[32], SRC(31));
  check("dpp row_bcast:15", 47, res[47], SRC(31));
  check("dpp row_bcast:15", 48, res[48], SRC(47));
  check("dpp row_bcast:15", 63, res[63], SRC(47));
  /* As LLVM's scans use it: row_mask 0xa, only rows 1 and 3 receive. */
  run_dpp(ALL, dpp_arg(0x142, 0xa, BANKS_ALL, 0));
  check("dpp row_bcast:15 row_mask 0xa", 20, res[20], SRC(15));
  check("dpp row_bcast:15 row_mask 0xa row 2 keeps old", 40, res[40], OLD(40));
  check("dpp row_bcast:15 row_mask 0xa", 50, res[50], SRC(47));
  check("dpp row_bcast:15 row_mask 0xa row 0 keeps old", 3, res[3], OLD(3));

  /* row_bcast:31 (0x143): rows 2 and 3 receive lane 31; rows 0 and 1 have no source. */
  run_dpp(ALL, dpp_arg(0x143, ROWS_ALL, BANKS_ALL, 0));
  check("dpp row_bcast:31 rows 0-1 keep old", 0, res[0], OLD(0));
  check("dpp row_bcast:31 rows 0-1 keep old", 31, res[31], OLD(31));
  check("dpp row_bcast:31", 32, res[32], SRC(31));
  check("dpp row_bcast:31", 63, res[63], SRC(31));
  run_dpp(ALL, dpp_arg(0x143, ROWS_ALL, BANKS_ALL, 1));
  check("dpp row_bcast:31 bound_ctrl", 10, res[10], 0);
  check("dpp row_bcast:31 bound_ctrl", 40, res[40], SRC(31));
}

static void test_dpp_masks(void) {
  /* row_mask 0x5: rows 1 and 3 are not written (keep old), even with bound_ctrl. */
  run_dpp(ALL, dpp_arg(0xb1, 0x5, BANKS_ALL, 1));
  check("dpp row_mask 0x5 row 0", 0, res[0], SRC(1));
  check("dpp row_mask 0x5 row 1 keeps old", 16, res[16], OLD(16));
  check("dpp row_mask 0x5 row 1 keeps old", 31, res[31], OLD(31));
  check("dpp row_mask 0x5 row 2", 33, res[33], SRC(32));
  check("dpp row_mask 0x5 row 3 keeps old", 48, res[48], OLD(48));
  check("dpp row_mask 0x5 row 3 keeps old", 63, res[63], OLD(63));

  /* bank_mask 0xd: bank 1 (lanes 4-7 of each row) not written; a written lane
   * may still read from it (lane 8 reads lane 7): the masks do not affect
   * the source fetch. row_shr:1 with bound_ctrl. */
  run_dpp(ALL, dpp_arg(0x111, ROWS_ALL, 0xd, 1));
  check("dpp bank_mask 0xd bank 1 keeps old", 4, res[4], OLD(4));
  check("dpp bank_mask 0xd bank 1 keeps old", 7, res[7], OLD(7));
  check("dpp bank_mask 0xd bank 1 keeps old", 23, res[23], OLD(23));
  check("dpp bank_mask 0xd reads a masked bank", 8, res[8], SRC(7));
  check("dpp bank_mask 0xd", 3, res[3], SRC(2));
  check("dpp bank_mask 0xd bound_ctrl", 16, res[16], 0);
}

static void test_dpp_exec(void) {
  /* Lane 5 not in exec: lane 4 (quad_perm [1,0,3,2]) reads it: invalid source
   * -> old (bound_ctrl false) or 0 (true). Lane 5 itself is not written. */
  uint64_t exec = ALL & ~(1ull << 5);
  run_dpp(exec, dpp_arg(0xb1, ROWS_ALL, BANKS_ALL, 0));
  check("dpp source outside exec keeps old", 4, res[4], OLD(4));
  check("dpp source in exec", 6, res[6], SRC(7));
  check_untouched("dpp untouched", exec);
  run_dpp(exec, dpp_arg(0xb1, ROWS_ALL, BANKS_ALL, 1));
  check("dpp source outside exec bound_ctrl", 4, res[4], 0);
  /* Half wave: wave_shl:1, lane 31 reads lane 32 (inactive). */
  run_dpp(LOW32, dpp_arg(0x130, ROWS_ALL, BANKS_ALL, 0));
  check("dpp wave_shl:1 into inactive half", 31, res[31], OLD(31));
  check("dpp wave_shl:1 half wave", 30, res[30], SRC(31));
  check_untouched("dpp half-wave untouched", LOW32);

  /* The controls are uniform: the first exec lane's (lane 3) are used. */
  exec = ~0ull << 3;
  for (unsigned i = 0; i < N; i++) val[i] = (uint64_t)OLD(i) << 32 | SRC(i), arg[i] = dpp_arg(0x143, ROWS_ALL, BANKS_ALL, 1);
  arg[3] = dpp_arg(0xb1, ROWS_ALL, BANKS_ALL, 1);
  run(LDSAN_EMU_WAVE_DPP, exec);
  check("dpp uniform controls", 4, res[4], SRC(5));
  check("dpp uniform controls", 63, res[63], SRC(62));

  /* mov.dpp: old = 0, row_shr:1 without bound_ctrl: lane 0 of a row gets 0. */
  for (unsigned i = 0; i < N; i++) val[i] = SRC(i), arg[i] = dpp_arg(0x111, ROWS_ALL, BANKS_ALL, 0);
  run(LDSAN_EMU_WAVE_DPP, ALL);
  check("mov.dpp row_shr:1 row start", 32, res[32], 0);
  check("mov.dpp row_shr:1", 33, res[33], SRC(32));
}

/* row_share:N / row_newbcast:N (0x150 + N): every lane of a row reads lane N
 * of its row; row_xmask:M (0x160 + M): lane n reads lane (n & 15) ^ M of its
 * row (LLVM's AMDGPUModifierSyntax.rst, gfx90a and gfx10 tables). */
static void test_dpp_row_share_xmask(void) {
  run_dpp(ALL, dpp_arg(0x155, ROWS_ALL, BANKS_ALL, 0)); /* row_share:5 */
  check("dpp row_share:5", 0, res[0], SRC(5));
  check("dpp row_share:5", 5, res[5], SRC(5));
  check("dpp row_share:5", 15, res[15], SRC(5));
  check("dpp row_share:5", 16, res[16], SRC(21));
  check("dpp row_share:5", 63, res[63], SRC(53));
  run_dpp(ALL, dpp_arg(0x150, ROWS_ALL, BANKS_ALL, 0)); /* row_share:0 */
  check("dpp row_share:0", 47, res[47], SRC(32));
  run_dpp(ALL, dpp_arg(0x161, ROWS_ALL, BANKS_ALL, 0)); /* row_xmask:1: swap neighbours */
  check("dpp row_xmask:1", 0, res[0], SRC(1));
  check("dpp row_xmask:1", 1, res[1], SRC(0));
  check("dpp row_xmask:1", 30, res[30], SRC(31));
  run_dpp(ALL, dpp_arg(0x16f, ROWS_ALL, BANKS_ALL, 0)); /* row_xmask:15: mirror the row */
  check("dpp row_xmask:15", 16, res[16], SRC(31));
  check("dpp row_xmask:15", 35, res[35], SRC(44));
  /* A source outside exec follows bound_ctrl, as for every control. */
  run_dpp(ALL & ~(1ull << 21), dpp_arg(0x155, ROWS_ALL, BANKS_ALL, 1));
  check("dpp row_share:5 inactive source bound_ctrl", 20, res[20], 0);
  check("dpp row_share:5 other row", 40, res[40], SRC(37));
}

static void test_dpp_unknown_controls(void) {
  /* No control (0x100 reserved, 0x131 and 0x144 gaps, 0x170 past the last):
   * source invalid. */
  run_dpp(ALL, dpp_arg(0x100, ROWS_ALL, BANKS_ALL, 0));
  check("dpp reserved 0x100 keeps old", 9, res[9], OLD(9));
  run_dpp(ALL, dpp_arg(0x131, ROWS_ALL, BANKS_ALL, 1));
  check("dpp unused 0x131 bound_ctrl", 9, res[9], 0);
  run_dpp(ALL, dpp_arg(0x144, ROWS_ALL, BANKS_ALL, 1));
  check("dpp unused 0x144 bound_ctrl", 9, res[9], 0);
  run_dpp(ALL, dpp_arg(0x170, ROWS_ALL, BANKS_ALL, 0));
  check("dpp past the last 0x170 keeps old", 9, res[9], OLD(9));
}

/* ---- ds_swizzle_b32 ----------------------------------------------------- */

/* Operands: src_i = 0x1000 + i, with garbage in the upper half (dropped). */
#define SWZ(i) (0x1000u + (i))

static void run_swizzle(uint64_t exec, uint32_t offset) {
  for (unsigned i = 0; i < N; i++) val[i] = 0xabcd00000000ull | SWZ(i), arg[i] = offset;
  run(LDSAN_EMU_WAVE_SWIZZLE, exec);
}

static void test_swizzle(void) {
  /* Quad mode, reverse each quad: offset = 0x8000 | 3 | 2 << 2 | 1 << 4 | 0 << 6 = 0x801b. */
  run_swizzle(ALL, 0x801b);
  check("swizzle quad reverse", 0, res[0], SWZ(3));
  check("swizzle quad reverse", 1, res[1], SWZ(2));
  check("swizzle quad reverse", 2, res[2], SWZ(1));
  check("swizzle quad reverse", 3, res[3], SWZ(0));
  check("swizzle quad reverse", 37, res[37], SWZ(38));
  check("swizzle quad reverse", 63, res[63], SWZ(60));

  /* Bit mode, swap pairs (SWAPX1): and 0x1f, or 0, xor 1 -> 0x1f | 1 << 10 = 0x041f. */
  run_swizzle(ALL, 0x041f);
  check("swizzle xor 1", 0, res[0], SWZ(1));
  check("swizzle xor 1", 1, res[1], SWZ(0));
  check("swizzle xor 1", 32, res[32], SWZ(33));
  check("swizzle xor 1", 63, res[63], SWZ(62));
  /* xor 0x10 (SWAPX16) stays within each group of 32: lane 20 reads 4, lane 40 reads 56. */
  run_swizzle(ALL, 0x1f | 0x10 << 10);
  check("swizzle xor 16", 20, res[20], SWZ(4));
  check("swizzle xor 16", 40, res[40], SWZ(56));

  /* Bit mode, and 0, or 0: every lane reads lane 0 of its group of 32. */
  run_swizzle(ALL, 0x0000);
  check("swizzle broadcast lane 0 of 32", 17, res[17], SWZ(0));
  check("swizzle broadcast lane 0 of 32", 31, res[31], SWZ(0));
  check("swizzle broadcast lane 0 of 32", 32, res[32], SWZ(32));
  check("swizzle broadcast lane 0 of 32", 50, res[50], SWZ(32));
  /* and 0, or 5 (BCASTX32 of thread 5): offset 5 << 5 = 0xa0. */
  run_swizzle(ALL, 0x00a0);
  check("swizzle broadcast lane 5 of 32", 0, res[0], SWZ(5));
  check("swizzle broadcast lane 5 of 32", 40, res[40], SWZ(37));
  /* and 0x1c, or 2 (BCASTX4 of thread 2): 0x1c | 2 << 5 = 0x5c. */
  run_swizzle(ALL, 0x005c);
  check("swizzle broadcast lane 2 of 4", 13, res[13], SWZ(14));
  check("swizzle broadcast lane 2 of 4", 33, res[33], SWZ(34));

  /* An inactive source gives 0: lane 1 not in exec, lane 0 reads it (xor 1). */
  uint64_t exec = ALL & ~(1ull << 1);
  run_swizzle(exec, 0x041f);
  check("swizzle inactive source", 0, res[0], 0);
  check("swizzle active source", 2, res[2], SWZ(3));
  check_untouched("swizzle untouched", exec);
  /* Quad mode too: lane 3 not in exec, lane 0 reads it (reverse). */
  exec = ALL & ~(1ull << 3);
  run_swizzle(exec, 0x801b);
  check("swizzle quad inactive source", 0, res[0], 0);
  check("swizzle quad active source", 1, res[1], SWZ(2));
  /* Half wave: lanes 0-31 read lane 0, lanes 32-63 are not written. */
  run_swizzle(LOW32, 0x0000);
  check("swizzle half wave", 31, res[31], SWZ(0));
  check_untouched("swizzle half-wave untouched", LOW32);

  /* The offset is uniform (the first exec lane's) and 16 bits wide. */
  exec = ~0ull << 2;
  for (unsigned i = 0; i < N; i++) val[i] = SWZ(i), arg[i] = 0x801b;
  arg[2] = 0x10000 | 0x041f;
  run(LDSAN_EMU_WAVE_SWIZZLE, exec);
  check("swizzle uniform 16-bit offset", 2, res[2], SWZ(3));
  check("swizzle uniform 16-bit offset", 4, res[4], SWZ(5));

  /* Rotate / FFT modes (offset >= 0xc000) are not modelled: 0. */
  run_swizzle(ALL, 0xc020);
  check("swizzle rotate mode not modelled", 7, res[7], 0);
  run_swizzle(ALL, 0xe000);
  check("swizzle fft mode not modelled", 7, res[7], 0);
}

/* A wave32 (RDNA) wave: lane operands wrap at 32 lanes ("ds_bpermute_b32 ...
 * wave32: the address's lane index is taken modulo 32"; readlane's lane select
 * likewise), and the ops see only the 32 lanes. */
static void test_wave32(void) {
  lanes = 32;
  for (unsigned i = 0; i < N; i++) val[i] = 100 + i, arg[i] = 4 * ((i + 33) % 64); /* lane i + 33: i + 1 mod 32 */
  run(LDSAN_EMU_WAVE_BPERMUTE, LOW32);
  for (unsigned i = 0; i < 32; i++) check("wave32 bpermute wraps at 32", i, res[i], 100 + (i + 1) % 32);
  for (unsigned i = 0; i < N; i++) arg[i] = 37;  /* readlane 37: lane 5 */
  run(LDSAN_EMU_WAVE_READLANE, LOW32);
  check("wave32 readlane wraps at 32", 0, res[0], 105);
  for (unsigned i = 0; i < N; i++) arg[i] = 4 * (31 - i % 32) + 128;  /* permute: lane i sends to 31 - i */
  run(LDSAN_EMU_WAVE_PERMUTE, LOW32);
  for (unsigned i = 0; i < 32; i++) check("wave32 permute wraps at 32", i, res[i], 100 + (31 - i));
  for (unsigned i = 0; i < N; i++) val[i] = i & 1;
  run(LDSAN_EMU_WAVE_BALLOT, LOW32);
  check("wave32 ballot", 3, res[3], 0xaaaaaaaaull);
  check("wave32 alone bpermute wraps", 7,
        ldsan_emu_wave_alone(LDSAN_EMU_WAVE_BPERMUTE, 32, 7, 55, 4 * (7 + 32)), 55);
  lanes = 64;
}

int main(void) {
  test_bpermute();
  test_permute();
  test_ballot();
  test_lanes();
  test_sync();
  test_dpp_arg_macro();
  test_dpp_quad_perm();
  test_dpp_row_shift();
  test_dpp_wave_shift();
  test_dpp_mirror();
  test_dpp_row_bcast();
  test_dpp_masks();
  test_dpp_exec();
  test_dpp_row_share_xmask();
  test_dpp_unknown_controls();
  test_swizzle();
  test_alone();
  test_wave32();
  if (failures) {
    printf("wave_ops: %u of %u checks failed\n", failures, checks);
    return 1;
  }
  printf("wave_ops: %u checks passed\n", checks);
  return 0;
}
