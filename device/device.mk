# device/device.mk: the amdgcn device runtime $(BUILD)/lib/ldsan-rt.bc and its
# host unit tests. Included by the top Makefile (CLANG, LLVM_LINK, BUILD,
# HOST_CFLAGS, SAN_FLAGS, WARN come from there).
#   make runtime      builds the bitcode (one .bc per .c, llvm-link'ed)
#   make unit-tests   builds $(BUILD)/test/unit/test_* (listed in test/unit.list)

.PHONY: runtime unit-tests

# Portable runtime sources; target_host.c is the host stand-in for target_amdgcn.h.
DEVICE_SRCS := $(filter-out device/target_host.c,$(wildcard device/*.c))
DEVICE_HDRS := $(wildcard device/*.h) $(wildcard include/ldsan/*.h include/ldsan/*.def)
DEVICE_BCS  := $(patsubst device/%.c,$(BUILD)/device/%.bc,$(DEVICE_SRCS))

# No -mcpu: the plugin stamps each module's target-cpu/features on the linked
# functions. Atomics may touch fine-grained (host) memory: the report channel.
DEVICE_CFLAGS := -target amdgcn-amd-amdhsa -Xclang -mcode-object-version=none -nogpulib -ffreestanding -fno-builtin -O2 -std=c11 \
                 -Wall -Wextra -Werror -Iinclude -fatomic-fine-grained-memory -fatomic-remote-memory \
                 -emit-llvm

runtime: $(BUILD)/lib/ldsan-rt.bc

$(BUILD)/device/%.bc: device/%.c $(DEVICE_HDRS)
	@mkdir -p $(@D)
	$(CLANG) $(DEVICE_CFLAGS) -c $< -o $@

$(BUILD)/lib/ldsan-rt.bc: $(DEVICE_BCS)
	@mkdir -p $(@D)
	$(LLVM_LINK) $(DEVICE_BCS) -o $@

# ---- host unit tests ---------------------------------------------------------
UNIT_CFLAGS := $(HOST_CFLAGS) $(SAN_FLAGS) $(WARN) -Werror -Iinclude -Idevice -pthread
UNIT_RT_OBJS := $(patsubst device/%.c,$(BUILD)/test/unit/rt/%.o,$(DEVICE_SRCS) device/target_host.c)
UNIT_TESTS := $(patsubst test/unit/%.c,$(BUILD)/test/unit/%,$(wildcard test/unit/test_*.c))

TEST_TARGETS += unit-tests
unit-tests: $(UNIT_TESTS)
.SECONDARY: $(UNIT_RT_OBJS) # shared by every test: keep them between builds

$(BUILD)/test/unit/rt/%.o: device/%.c $(DEVICE_HDRS)
	@mkdir -p $(@D)
	$(CLANG) $(UNIT_CFLAGS) -c $< -o $@

$(BUILD)/test/unit/test_%: test/unit/test_%.c test/unit/unit.h $(UNIT_RT_OBJS)
	@mkdir -p $(@D)
	$(CLANG) $(UNIT_CFLAGS) $< $(UNIT_RT_OBJS) -o $@
