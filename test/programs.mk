# test/programs.mk: the emulator's test programs, each built once per mode that
# its RUN lines name (%{exe} is mode full, %{exe:MODE} another: test/lit.cfg.py),
# so that its lit test, its option variants and both schedulers only run them.
#   test/emulator/x.hip  ->  $(BUILD)/test/programs/<mode>/emulator/x  (+ x.log, the compile's output)
# The modes and their flags: test/lib/build_program.sh. A program that does not
# build leaves no binary and does not stop make: its test fails with the log.
# make test-programs builds them (part of TEST_TARGETS), in parallel with -j.
TEST_PROGRAM_SRCS := $(wildcard test/emulator/*.hip)
TEST_PROGRAM_DIR  := $(BUILD)/test/programs
# <mode>/<dir>/<name> for every %{exe} or %{exe:<mode>} a RUN line names.
TEST_PROGRAMS := $(shell grep -oE '%\{exe(:[A-Za-z0-9+-]+)?\}' $(TEST_PROGRAM_SRCS) /dev/null | \
  sed -E 's|^test/(.*)\.hip:%\{exe\}$$|full/\1|; s|^test/(.*)\.hip:%\{exe:([A-Za-z0-9+-]+)\}$$|\2/\1|' | sort -u)
TEST_PROGRAM_MODES := $(sort $(foreach p,$(TEST_PROGRAMS),$(firstword $(subst /, ,$(p)))))

# What an `ldsan-cc --emulate` build reads: a change to any of it rebuilds them all.
TEST_PROGRAM_TOOLCHAIN := $(BUILD)/bin/ldsan-cc $(BUILD)/libexec/ldsan-cc-emulate $(EMU_RETARGET) \
  $(EMU_CORE_LIB) $(BUILD)/lib/libldsan-emu-hip.a $(EMU_HOST_LIB) $(INSTRUMENT_SO) \
  $(BUILD)/lib/ldsan-rt.bc $(BUILD)/lib/ldsan-rt-lds.bc $(BUILD)/lib/ldsan.cfg \
  $(BUILD)/lib/amdgcn-bitcode/asanrtl.bc test/lib/build_program.sh
TEST_PROGRAM_TOOLCHAIN_sanitized := $(EMU_ASAN)/bin/ldsan-cc $(EMU_ASAN)/libexec/ldsan-cc-emulate $(EMU_ASAN_CORE) $(EMU_ASAN_HIP) \
  $(EMU_ASAN)/sanitized

define test_program_mode
$(TEST_PROGRAM_DIR)/$(1)/%: test/%.hip test/emulator/common.h $(TEST_PROGRAM_TOOLCHAIN) $(TEST_PROGRAM_TOOLCHAIN_$(1))
	@BUILD=$(BUILD) test/lib/build_program.sh $(1) $$< $$@
endef
$(foreach m,$(TEST_PROGRAM_MODES),$(eval $(call test_program_mode,$(m))))

.PHONY: test-programs-emulator
test-programs-emulator: $(TEST_PROGRAMS:%=$(TEST_PROGRAM_DIR)/%)
TEST_TARGETS += test-programs-emulator
