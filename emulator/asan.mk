# emulator/asan.mk: the ASan+UBSan build root $(BUILD)/asan, laid out like
# $(BUILD) (bin/, lib/, libexec/) so the drivers find everything relative to it:
#   bin/ldsan-cc, libexec/ldsan-cc-emulate       the drivers, built with $(SAN_FLAGS)
#                                                (no leak check: tools/asan_driver_options.c)
#   lib/libldsan-emu-core.a, libldsan-emu-hip.a  emulator core and HIP layer, $(SAN_FLAGS)
#   lib/libldsan-host.a  -> ../../lib/libldsan-host-asan.a   (host/host.mk)
#   lib/libldsan-host.so -> ../../lib/asan/libldsan-host.so
#   bin/ldsan-emu-retarget, lib/ldsan-instrument.so, lib/ldsan-rt.bc, lib/ldsan-rt-lds.bc,
#   lib/amdgcn-bitcode   -> the plain build's (compile-time tools, not host code)
#   sanitized            marker: ldsan-cc knows it runs from this root
# `LDSAN_EMU_SANITIZED=1 ldsan-cc --emulate ...` (or $(BUILD)/asan/bin/ldsan-cc)
# links these into the program, which is host-ASan-built anyway; ASan's runtime
# carries UBSan's handlers, so the link line needs nothing more.
# Fibers: the core announces every stack switch to ASan
# (__sanitizer_start_switch_fiber/finish, core_sched.c), so fiber code runs on
# stacks ASan knows (a trapping work-item's noreturn call no longer makes ASan
# warn that it ignores __asan_handle_no_return). Work-item loops run on the
# worker threads' own stacks.
#   make emulator-asan         the build root
#   make emulator-asan-tests   + $(BUILD)/emucore/asan/<test>: test/emulator/core's programs on it
.PHONY: emulator-asan emulator-asan-tests

EMU_ASAN         := $(BUILD)/asan
EMU_ASAN_CORE    := $(EMU_ASAN)/lib/libldsan-emu-core.a
EMU_ASAN_HIP     := $(EMU_ASAN)/lib/libldsan-emu-hip.a
EMU_ASAN_CORE_OBJ := $(EMU_CORE_SRC:emulator/core/%.c=$(BUILD)/obj/emucore-asan/%.o)
EMU_ASAN_HIP_OBJ := $(EMU_HIP_SRCS:emulator/hip/%.c=$(BUILD)/obj/emulator/hip-asan/%.o)
# name in $(EMU_ASAN) -> what it points at, relative to $(EMU_ASAN)/<dir>
EMU_ASAN_LINKS   := bin/ldsan-emu-retarget:../../bin/ldsan-emu-retarget \
                    lib/ldsan-instrument.so:../../lib/ldsan-instrument.so \
                    lib/ldsan-rt.bc:../../lib/ldsan-rt.bc \
                    lib/ldsan-rt-lds.bc:../../lib/ldsan-rt-lds.bc \
                    lib/ldsan.cfg:../../lib/ldsan.cfg \
                    lib/amdgcn-bitcode:../../lib/amdgcn-bitcode \
                    lib/libldsan-host.a:../../lib/libldsan-host-asan.a \
                    lib/libldsan-host.so:../../lib/asan/libldsan-host.so

# The core's own tests (test/emulator/core), linked with the sanitized core and host library.
EMU_ASAN_TESTS   := $(EMU_TESTS:%=$(EMU_T)/asan/%)

emulator-asan: $(EMU_ASAN)/bin/ldsan-cc $(EMU_ASAN)/libexec/ldsan-cc-emulate $(EMU_ASAN_CORE) $(EMU_ASAN_HIP) \
               $(EMU_ASAN)/sanitized
emulator-asan-tests: emulator-asan $(EMU_ASAN_TESTS)
TEST_TARGETS += emulator-asan-tests

EMU_ASAN_FLAGS   := $(SAN_FLAGS)

$(BUILD)/obj/emucore-asan/%.o: emulator/core/%.c emulator/core/core_internal.h $(EMU_CONTRACTS)
	@mkdir -p $(@D)
	$(CLANG) $(EMU_CFLAGS) $(EMU_ASAN_FLAGS) -fPIC -MMD -MP -c $< -o $@

# The fiber switch is assembly: the plain object (nothing to instrument).
$(EMU_ASAN_CORE): $(EMU_ASAN_CORE_OBJ) $(BUILD)/obj/emucore/core_fiber.o
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/obj/emulator/hip-asan/%.o: emulator/hip/%.c emulator/hip/hip_internal.h $(EMU_CONTRACTS)
	@mkdir -p $(@D)
	$(CLANG) $(EMU_HIP_CFLAGS) $(EMU_ASAN_FLAGS) -MMD -MP -c $< -o $@

$(EMU_ASAN_HIP): $(EMU_ASAN_HIP_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(EMU_T)/asan/%: test/emulator/core/%.c test/emulator/core/harness.h $(EMU_T)/%.dev.o $(EMU_ASAN_CORE) $(HOST_ASAN_LIB)
	@mkdir -p $(@D)
	$(CLANG) $(EMU_CFLAGS) $(SAN_FLAGS) $< $(EMU_T)/$*.dev.o $(EMU_ASAN_CORE) $(HOST_ASAN_LIB) -lpthread -lm -o $@

# The drivers never free (one-shot processes): no leak report at exit
# (tools/asan_driver_options.c); every other check is on.
$(EMU_ASAN)/bin/ldsan-cc: $(LDSAN_CC_SRCS) tools/asan_driver_options.c
	@mkdir -p $(@D)
	$(CLANG) $(HOST_CFLAGS) $(SAN_FLAGS) $(LDSAN_CC_DEFS) -o $@ $^

$(EMU_ASAN)/libexec/ldsan-cc-emulate: $(EMU_DRIVER_SRCS) tools/asan_driver_options.c
	@mkdir -p $(@D)
	$(CLANG) $(HOST_CFLAGS) $(SAN_FLAGS) $(EMU_DRIVER_DEFS) -o $@ $^

# The links (made even before their targets exist; `make` builds those too).
$(EMU_ASAN)/sanitized: emulator/asan.mk | $(HOST_ASAN_LIB) $(HSA_TOOL_ASAN_LIB) $(EMU_RETARGET) $(INSTRUMENT_SO) \
                       $(BUILD)/lib/ldsan-rt.bc $(BUILD)/lib/ldsan-rt-lds.bc $(BUILD)/lib/ldsan.cfg $(BUILD)/lib/amdgcn-bitcode/asanrtl.bc
	@mkdir -p $(EMU_ASAN)/bin $(EMU_ASAN)/lib $(EMU_ASAN)/libexec
	@for l in $(EMU_ASAN_LINKS); do ln -sfn "$${l#*:}" "$(EMU_ASAN)/$${l%%:*}"; done
	echo "ldsan ASan+UBSan build root: see emulator/asan.mk" > $@

# Header dependencies of the sanitized core and HIP layer.
-include $(EMU_ASAN_CORE_OBJ:.o=.d) $(EMU_ASAN_HIP_OBJ:.o=.d)
