/* ldsan drivers: which checks a command line's sanitizer options ask for.
 * One rule for ldsan-cc (tools/ldsan-cc.c) and the --emulate driver
 * (tools/cc_emulate.c), so both build the same mode and say the same. */
#ifndef LDSAN_TOOLS_SANITIZE_MODE_H
#define LDSAN_TOOLS_SANITIZE_MODE_H

typedef struct {
  int lds_only;     /* build in the LDS-only mode (no AddressSanitizer in ldsan's part) */
  const char *note; /* what the driver says about the choice ("ldsan-cc: note: " goes before it), or NULL */
} ldsan_cc_mode;

/* The mode of argv's -fsanitize=/-fno-sanitize= options, the last naming a
 * sanitizer winning as in clang (lds: ldsan's LDS-only mode; address, and
 * -fno-sanitize=all): the full mode unless -fsanitize=lds is in effect;
 * -fno-sanitize=address in the full mode gives the LDS-only mode, since the
 * full mode is AddressSanitizer; -fsanitize=lds with -fsanitize=address is the
 * full mode on the emulator (which runs an xnack+ target) and on a GPU the
 * LDS-only mode whose xnack+ targets get AddressSanitizer too. The two
 * changes of mode come with a note. */
ldsan_cc_mode ldsan_cc_sanitize_mode(int argc, char **argv, int emulate);

#endif /* LDSAN_TOOLS_SANITIZE_MODE_H */
