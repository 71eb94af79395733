# emulator/hip.mk: the CPU emulator's HIP side — the emulated HIP runtime
# (libldsan-emu-hip.a), the `ldsan-cc --emulate` driver, and `make bench`.
# The emulator core (emulator/core.mk) builds ldsan-emu-retarget and libldsan-emu-core.a.
.PHONY: emulator-hip emulator-bench

EMU_HIP_SRCS := $(wildcard emulator/hip/*.c)
EMU_HIP_OBJS := $(patsubst emulator/hip/%.c,$(BUILD)/obj/emulator/hip/%.o,$(EMU_HIP_SRCS))
# Frame pointers: ASan's malloc stacks unwind by them, and a hipMalloc buffer's
# "allocated by" stack (host/asan_heap.c) goes through hipMalloc to the program.
EMU_HIP_CFLAGS := $(HOST_CFLAGS) -fPIC -fno-omit-frame-pointer -D_GNU_SOURCE -D__HIP_PLATFORM_AMD__ -Iinclude

emulator-hip: $(BUILD)/lib/libldsan-emu-hip.a $(BUILD)/libexec/ldsan-cc-emulate
# --emulate needs the core's retarget tool and library at run time.
all: emulator-hip $(if $(wildcard emulator/core.mk),emulator-core)

$(BUILD)/obj/emulator/hip/%.o: emulator/hip/%.c emulator/hip/hip_internal.h emulator/emu.h
	@mkdir -p $(dir $@)
	$(CLANG) $(EMU_HIP_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/lib/libldsan-emu-hip.a: $(EMU_HIP_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

# The --emulate driver: emulator/cc_emulate.c, with emulator/rdc_bitcode.c (-fgpu-rdc).
EMU_DRIVER_SRCS := emulator/cc_emulate.c emulator/rdc_bitcode.c tools/input_kind.c tools/sanitize_mode.c
EMU_DRIVER_DEFS := -D_GNU_SOURCE -DLDSAN_DEFAULT_CLANG='"$(CLANG)"' -DLDSAN_DEFAULT_CLANGXX='"$(CLANGXX)"' \
  -DLDSAN_DEFAULT_NM='"llvm-nm-$(LLVM_VERSION)"' -DLDSAN_DEFAULT_OBJCOPY='"llvm-objcopy-$(LLVM_VERSION)"' \
  -DLDSAN_DEFAULT_LLVM_LINK='"$(LLVM_LINK)"' -DLDSAN_DEFAULT_OPT='"$(OPT)"'
$(BUILD)/libexec/ldsan-cc-emulate: $(EMU_DRIVER_SRCS) emulator/rdc_bitcode.h tools/input_kind.h tools/sanitize_mode.h
	@mkdir -p $(dir $@)
	$(CLANG) $(HOST_CFLAGS) $(EMU_DRIVER_DEFS) -o $@ $(filter %.c,$^)

# make bench: emulated vs. native time of a 1M-element sanitized reduction.
bench: emulator-bench
emulator-bench: all
	BUILD=$(BUILD) test/emulator/bench.sh
# ... and the static device cost of the reference kernels (issue #10).
bench: static-cost-bench
.PHONY: static-cost-bench
static-cost-bench: all
	BUILD=$(BUILD) test/bench/static_cost.sh
# ... and the CPU time of an --emulate build against a GPU build (issue 37).
bench: build-time-bench
.PHONY: build-time-bench
build-time-bench: all
	BUILD=$(BUILD) test/bench/build_time.sh
# ... and the LDS-only mode's against full ASan's (issue #13).
bench: lds-only-cost-bench
.PHONY: lds-only-cost-bench
lds-only-cost-bench: all
	BUILD=$(BUILD) test/bench/lds_only_cost.sh

# Header dependencies (include/ldsan/*.h).
-include $(EMU_HIP_OBJS:.o=.d)
