/* ldsan-emu-retarget's exit status, read by ldsan-cc --emulate
 * (cc_emulate.c): 0 done, 1 any error, and this one when every error was an
 * intrinsic the CPU emulator does not lower (then unoptimized device code
 * may be the cause: ldsan-cc --emulate says so). */
#ifndef LDSAN_EMU_RETARGET_EXIT_H
#define LDSAN_EMU_RETARGET_EXIT_H

#define LDSAN_EMU_RETARGET_EXIT_INTRINSIC 3

#endif
