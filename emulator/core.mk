# ldsan CPU emulator core: the execution core and its tests (the retarget tool
# that makes the device objects it runs: retarget/retarget.mk).
# Included by the top Makefile, after retarget/retarget.mk.
#   $(BUILD)/lib/libldsan-emu-core.a   scheduler, fibers, intrinsics, report drain
#   emucore-tests / bench-core         test programs (test/emulator/core.list) / speed check
BUILD       ?= build
CLANG       ?= clang-22
CLANGXX     ?= clang++-22
LLVM_CONFIG ?= llvm-config-22
OPT         ?= opt-22
LLVM_LINK   ?= llvm-link-22
ROCM_BITCODE ?= /usr/lib/x86_64-linux-gnu/amdgcn/bitcode
HOST_CFLAGS ?= -O2 -g -Wall -Wextra -Werror=implicit-function-declaration -std=c11

# include/: the ABI and the emulator's contracts (include/ldsan/emu/).
EMU_CFLAGS := $(HOST_CFLAGS) -D_GNU_SOURCE -fno-omit-frame-pointer -Iinclude
# The host report library prints the reports the core drains (host/host.mk).
EMU_HOST_LIB := $(BUILD)/lib/libldsan-host.a
EMU_CORE_LIB := $(BUILD)/lib/libldsan-emu-core.a
# Link line for a program using the core (after its objects).
EMU_CORE_LINK := $(EMU_CORE_LIB) $(EMU_HOST_LIB) -lpthread -lm

EMU_CORE_SRC := $(wildcard emulator/core/*.c)
EMU_CORE_OBJ := $(EMU_CORE_SRC:emulator/core/%.c=$(BUILD)/obj/emucore/%.o) $(BUILD)/obj/emucore/core_fiber.o

.PHONY: emulator-core emucore-tests bench-core
emulator-core: $(EMU_RETARGET) $(EMU_CORE_LIB)

$(BUILD)/obj/emucore/%.o: emulator/core/%.c emulator/core/core_internal.h $(EMU_CONTRACTS)
	@mkdir -p $(dir $@)
	$(CLANG) $(EMU_CFLAGS) -fPIC -MMD -MP -c $< -o $@

$(BUILD)/obj/emucore/core_fiber.o: emulator/core/core_fiber.S
	@mkdir -p $(dir $@)
	$(CLANG) -c $< -o $@

$(EMU_CORE_LIB): $(EMU_CORE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# ---- tests: device code -> lowered + stub runtime -> retargeted object -------
EMU_T := $(BUILD)/emucore
EMU_DEV_FLAGS := -x hip --offload-arch=gfx90a:xnack+ -mcode-object-version=5 -D__AMDGCN_WAVEFRONT_SIZE=64 \
  --rocm-path=/usr --rocm-device-lib-path=$(ROCM_BITCODE) -fsanitize=address --offload-device-only \
  -emit-llvm -c -O2 -Wno-unused-command-line-argument
EMU_TESTS := barrier ids3d dynlds atomics overflow trap
EMU_TEST_BINS := $(EMU_TESTS:%=$(EMU_T)/%) $(EMU_T)/barrier-hostasan $(EMU_T)/bench $(EMU_T)/wave_ops \
  $(EMU_T)/shadow_clean $(EMU_T)/lds_disjoint

$(EMU_T)/stub_rt.bc: test/emulator/core/target_stub_rt.c include/ldsan/abi.h
	@mkdir -p $(dir $@)
	$(CLANG) -target amdgcn-amd-amdhsa -mcpu=gfx90a:xnack+ -mcode-object-version=5 -nogpulib -ffreestanding -O2 -Iinclude -emit-llvm -c $< -o $@

$(EMU_T)/%.dev.bc: test/emulator/core/%.hip
	@mkdir -p $(dir $@)
	$(CLANG) $(EMU_DEV_FLAGS) $< -o $@

$(EMU_T)/%.low.bc: $(EMU_T)/%.dev.bc $(EMU_T)/stub_rt.bc
	$(OPT) -passes=amdgpu-sw-lower-lds $< -o $@.tmp.bc
	$(LLVM_LINK) $@.tmp.bc $(EMU_T)/stub_rt.bc -o $@
	rm -f $@.tmp.bc

$(EMU_T)/%.dev.o: $(EMU_T)/%.low.bc $(EMU_RETARGET)
	$(EMU_RETARGET) $< -o $@

# The core's own unit tests reach its internals (core_internal.h): -Iemulator/core.
EMU_UNIT_CFLAGS := $(EMU_CFLAGS) -Iemulator/core -fsanitize=address,undefined -fno-sanitize-recover=undefined

$(EMU_T)/%: test/emulator/core/%.c test/emulator/core/harness.h $(EMU_T)/%.dev.o $(EMU_CORE_LIB) $(EMU_HOST_LIB)
	$(CLANG) $(EMU_CFLAGS) $< $(EMU_T)/$*.dev.o $(EMU_CORE_LINK) -o $@

$(EMU_T)/barrier-hostasan: test/emulator/core/barrier.c test/emulator/core/harness.h $(EMU_T)/barrier.dev.o $(EMU_CORE_LIB) $(EMU_HOST_LIB)
	$(CLANG) $(EMU_CFLAGS) -fsanitize=address $< $(EMU_T)/barrier.dev.o $(EMU_CORE_LINK) -o $@

$(EMU_T)/bench: test/emulator/core/bench.c test/emulator/core/harness.h $(EMU_T)/bench.dev.o $(EMU_CORE_LIB) $(EMU_HOST_LIB)
	$(CLANG) $(EMU_CFLAGS) -O2 $< $(EMU_T)/bench.dev.o $(EMU_CORE_LINK) -o $@

# Unit test of the cross-lane operations (pure functions: no device code, no core library).
$(EMU_T)/wave_ops: test/emulator/core/wave_ops.c emulator/core/core_wave_ops.c emulator/core/core_wave_ops.h \
    include/ldsan/emu/wave_ops.h
	@mkdir -p $(dir $@)
	$(CLANG) $(EMU_UNIT_CFLAGS) $< emulator/core/core_wave_ops.c -o $@

# Unit test of the work-item loops' once-per-loop shadow check, against ASan's poisoning.
$(EMU_T)/shadow_clean: test/emulator/core/shadow_clean.c emulator/core/core_shadow_range.c emulator/core/core_internal.h
	@mkdir -p $(dir $@)
	$(CLANG) $(EMU_UNIT_CFLAGS) $< emulator/core/core_shadow_range.c -o $@

# Unit test of the LDS checks' once-per-loop decision (no device code; the test owns the TLS and worker).
$(EMU_T)/lds_disjoint: test/emulator/core/lds_disjoint.c emulator/core/core_lds_disjoint.c emulator/core/core_internal.h \
    $(EMU_CONTRACTS)
	@mkdir -p $(dir $@)
	$(CLANG) $(EMU_UNIT_CFLAGS) $< emulator/core/core_lds_disjoint.c -o $@

TEST_TARGETS += emucore-tests
emucore-tests: emulator-core $(EMU_TEST_BINS) $(EMU_T)/stub_rt.bc $(EMU_T)/unsupported.low.bc

bench-core: emucore-tests
	$(EMU_T)/bench

# Header dependencies (include/ldsan/*.h: the host library's structs the core fills).
-include $(EMU_CORE_OBJ:.o=.d)
