/* ldsan host library: ANSI colours by role, like sanitizer_common's Decorator.
 * Every escape in a report comes from here, so color=never yields plain text. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define ESC_DEFAULT "\033[1m\033[0m"
#define ESC_BOLD "\033[1m"
#define ESC_RED "\033[1m\033[31m"
#define ESC_GREEN "\033[1m\033[32m"
#define ESC_YELLOW "\033[1m\033[33m"
#define ESC_BLUE "\033[1m\033[34m"
#define ESC_MAGENTA "\033[1m\033[35m"
#define ESC_CYAN "\033[1m\033[36m"

ldsan_decorator ldsan_decorator_for(FILE *out) {
  const char *c = ldsan_flags_get()->color;
  ldsan_decorator d = {0};
  if (!strcmp(c, "always")) d.on = 1;
  else if (!strcmp(c, "auto")) {
    const char *term = getenv("TERM");
    d.on = out && isatty(fileno(out)) && term && strcmp(term, "dumb") != 0;
  }
  return d;
}

static const char *pick(ldsan_decorator d, const char *esc) { return d.on ? esc : ""; }

const char *ldsan_deco_bold(ldsan_decorator d) { return pick(d, ESC_BOLD); }
const char *ldsan_deco_warning(ldsan_decorator d) { return pick(d, ESC_RED); }
const char *ldsan_deco_access(ldsan_decorator d) { return pick(d, ESC_BLUE); }
const char *ldsan_deco_location(ldsan_decorator d) { return pick(d, ESC_GREEN); }
const char *ldsan_deco_variable(ldsan_decorator d) { return pick(d, ESC_MAGENTA); }
const char *ldsan_deco_end(ldsan_decorator d) { return pick(d, ESC_DEFAULT); }

/* Colour of one shadow byte in a dump: redzones red, freed magenta, LDS
 * bookkeeping (header, slot) cyan/yellow, user poison blue, addressable plain. */
const char *ldsan_deco_shadow(ldsan_decorator d, uint8_t s) {
  if (!d.on || s < 8) return "";
  switch (s) {
  case LDSAN_SHADOW_LDS_FREED: case 0xfd: return ESC_MAGENTA;
  case LDSAN_SHADOW_LDS_BLOCK_HEADER: return ESC_CYAN;
  case LDSAN_SHADOW_LDS_COMPILER_SLOT: return ESC_YELLOW;
  case 0xf7: case 0xfc: return ESC_BLUE;
  default: return ESC_RED;
  }
}
