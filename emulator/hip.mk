# emulator/hip.mk: the CPU emulator's HIP side — the emulated HIP runtime
# (libldsan-emu-hip.a), and `make bench`. The emulator core (emulator/core.mk)
# builds libldsan-emu-core.a, retarget/retarget.mk ldsan-emu-retarget, and
# tools/tools.mk the `ldsan-cc --emulate` driver (libexec/ldsan-cc-emulate).
.PHONY: emulator-hip emulator-bench

EMU_HIP_SRCS := $(wildcard emulator/hip/*.c)
EMU_HIP_OBJS := $(patsubst emulator/hip/%.c,$(BUILD)/obj/emulator/hip/%.o,$(EMU_HIP_SRCS))
# Frame pointers: ASan's malloc stacks unwind by them, and a hipMalloc buffer's
# "allocated by" stack (host/asan_heap.c) goes through hipMalloc to the program.
EMU_HIP_CFLAGS := $(HOST_CFLAGS) -fPIC -fno-omit-frame-pointer -D_GNU_SOURCE -D__HIP_PLATFORM_AMD__ -Iinclude

emulator-hip: $(BUILD)/lib/libldsan-emu-hip.a $(BUILD)/libexec/ldsan-cc-emulate
# --emulate needs the core's retarget tool and library at run time.
all: emulator-hip $(if $(wildcard emulator/core.mk),emulator-core)

$(BUILD)/obj/emulator/hip/%.o: emulator/hip/%.c emulator/hip/hip_internal.h $(EMU_CONTRACTS)
	@mkdir -p $(dir $@)
	$(CLANG) $(EMU_HIP_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/lib/libldsan-emu-hip.a: $(EMU_HIP_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

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
