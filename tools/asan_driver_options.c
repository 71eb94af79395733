/* Linked into the ASan+UBSan builds of the drivers (ldsan-cc,
 * ldsan-cc-emulate; emulator/asan.mk) only. They are one-shot processes that
 * exec or exit and, like clang's own driver, never free what they allocate,
 * so LeakSanitizer's exit-time report would be noise that fails every build;
 * every other ASan and UBSan check stays on. ASAN_OPTIONS=detect_leaks=1
 * turns the leak check back on. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }
