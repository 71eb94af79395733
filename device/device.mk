# device/device.mk: the amdgcn device runtime $(BUILD)/lib/ldsan-rt.bc and its
# host unit tests. Included by the top Makefile (CLANG, LLVM_LINK, BUILD,
# HOST_CFLAGS, SAN_FLAGS, WARN come from there).
#   make runtime      builds the bitcode (one .bc per .c, llvm-link'ed)
#   make unit-tests   builds $(BUILD)/test/device/test_* (listed in test/device.list)

.PHONY: runtime unit-tests

# Portable runtime sources; target_host.c is the host stand-in for target_amdgcn.h.
# own_shadow.c and flat_lds_access.c belong to the LDS-only runtime only (below).
DEVICE_SRCS := $(filter-out device/target_host.c device/own_shadow.c device/flat_lds_access.c,$(wildcard device/*.c))
DEVICE_HDRS := $(wildcard device/*.h) $(wildcard include/ldsan/*.h include/ldsan/*.def)
DEVICE_BCS  := $(patsubst device/%.c,$(BUILD)/device/%.bc,$(DEVICE_SRCS))

# No -mcpu: the plugin stamps each module's target-cpu/features on the linked
# functions. Atomics may touch fine-grained (host) memory: the report channel.
DEVICE_CFLAGS := -target amdgcn-amd-amdhsa -Xclang -mcode-object-version=none -nogpulib -ffreestanding -fno-builtin -O2 -std=c11 \
                 -Wall -Wextra -Werror -Iinclude -fatomic-fine-grained-memory -fatomic-remote-memory \
                 -emit-llvm

runtime: $(BUILD)/lib/ldsan-rt.bc $(BUILD)/lib/ldsan-rt-lds.bc

$(BUILD)/device/%.bc: device/%.c $(DEVICE_HDRS)
	@mkdir -p $(@D)
	$(CLANG) $(DEVICE_CFLAGS) -c $< -o $@

# The LDS-only runtime (ldsan-cc -fsanitize=lds): the same sources with the
# shadow of its pool in ldsan's own memory (LDSAN_OWN_SHADOW, own_shadow.c).
DEVICE_LDS_BCS := $(patsubst device/%.c,$(BUILD)/device-lds/%.bc,$(DEVICE_SRCS) device/own_shadow.c device/flat_lds_access.c)
$(BUILD)/device-lds/%.bc: device/%.c $(DEVICE_HDRS)
	@mkdir -p $(@D)
	$(CLANG) $(DEVICE_CFLAGS) -DLDSAN_OWN_SHADOW -c $< -o $@

# Optimized as one module after linking: calls between runtime files are
# inlined where the optimizer wants (the plugin links the runtime after the
# program's optimizer ran, so nothing else would), which keeps the stack
# objects and out-parameters of cross-file calls off the kernel's scratch.
# Entry points stay noinline (LDSAN_ENTRY_FN); cold paths stay out of line.
link_runtime = $(LLVM_LINK) $(1) -o $(2).linked.bc && $(OPT) -O2 $(2).linked.bc -o $(2) && rm -f $(2).linked.bc
$(BUILD)/lib/ldsan-rt.bc: $(DEVICE_BCS)
	@mkdir -p $(@D)
	$(call link_runtime,$(DEVICE_BCS),$@)
$(BUILD)/lib/ldsan-rt-lds.bc: $(DEVICE_LDS_BCS)
	@mkdir -p $(@D)
	$(call link_runtime,$(DEVICE_LDS_BCS),$@)

# ---- host unit tests ---------------------------------------------------------
UNIT_CFLAGS := $(HOST_CFLAGS) $(SAN_FLAGS) $(WARN) -Werror -Iinclude -Idevice -pthread
UNIT_RT_OBJS := $(patsubst device/%.c,$(BUILD)/test/device/rt/%.o,$(DEVICE_SRCS) device/target_host.c)
UNIT_TESTS := $(patsubst test/device/%.c,$(BUILD)/test/device/%,$(wildcard test/device/test_*.c))

TEST_TARGETS += unit-tests
unit-tests: $(UNIT_TESTS)
.SECONDARY: $(UNIT_RT_OBJS) # shared by every test: keep them between builds

$(BUILD)/test/device/rt/%.o: device/%.c $(DEVICE_HDRS)
	@mkdir -p $(@D)
	$(CLANG) $(UNIT_CFLAGS) -c $< -o $@

$(BUILD)/test/device/test_%: test/device/test_%.c test/device/unit.h $(UNIT_RT_OBJS)
	@mkdir -p $(@D)
	$(CLANG) $(UNIT_CFLAGS) $< $(UNIT_RT_OBJS) -o $@

# The concurrent tests again under ThreadSanitizer (instead of ASan/UBSan): the
# pool and the block cache, hammered by threads acting as workgroups.
UNIT_TSAN_CFLAGS := $(HOST_CFLAGS) $(WARN) -Werror -Iinclude -Idevice -pthread -fsanitize=thread
UNIT_TSAN_RT_OBJS := $(patsubst device/%.c,$(BUILD)/test/device/tsan-rt/%.o,$(DEVICE_SRCS) device/target_host.c)
UNIT_TSAN_TESTS := $(BUILD)/test/device/tsan/test_block_cache $(BUILD)/test/device/tsan/test_pool_concurrency
unit-tests: $(UNIT_TSAN_TESTS)
.SECONDARY: $(UNIT_TSAN_RT_OBJS)

$(BUILD)/test/device/tsan-rt/%.o: device/%.c $(DEVICE_HDRS)
	@mkdir -p $(@D)
	$(CLANG) $(UNIT_TSAN_CFLAGS) -c $< -o $@

$(BUILD)/test/device/tsan/test_%: test/device/test_%.c test/device/unit.h $(UNIT_TSAN_RT_OBJS)
	@mkdir -p $(@D)
	$(CLANG) $(UNIT_TSAN_CFLAGS) $< $(UNIT_TSAN_RT_OBJS) -o $@

# ---- device-library fixes for ROCm 5.2 under clang 22 (device/devlibs/README.md)
# Written into the device-library directory ldsan-cc points clang at
# ($(BUILD)/lib/amdgcn-bitcode, made by tools/tools.mk): each
# oclc_isa_version_<N>.bc becomes Debian's plus __oclc_daz_opt (the control
# variable ROCm 5.2's ocml reads and clang 22 no longer links) with target N's
# default, plus ROCm's hip.bc (ldsan-hip.bc, tools/tools.mk); ldsan-hip-compat.h
# is the header ldsan-cc pre-includes. Their definitions are weak_odr, not
# linkonce_odr: llvm-link drops an unreferenced linkonce definition, and clang
# internalizes what it links from a device library either way.
.PHONY: device-libs
DEVLIB_DIR := $(BUILD)/lib/amdgcn-bitcode
DEVLIB_ISA := $(patsubst $(ROCM_BITCODE)/%,$(DEVLIB_DIR)/%,$(wildcard $(ROCM_BITCODE)/oclc_isa_version_*.bc))
# Targets ROCm 5.2 predates: gfx942 is gfx940's ISA (9.4.2; they differ in the
# memory model, which ocml does not touch). RDNA 3 and 4 (gfx1100-1102,
# gfx1200-1201; the LDS-only mode's targets) get their ISA version so that
# HIP programs link; ROCm 5.2's ocml/ockl take their gfx10 paths there
# (device/devlibs/README.md says what that means).
DEVLIB_EXTRA_ISA := $(if $(wildcard $(ROCM_BITCODE)/oclc_isa_version_940.bc),942) \
                    $(if $(wildcard $(ROCM_BITCODE)/oclc_isa_version_1030.bc),1100 1101 1102 1200 1201)
# ISA version of each: major * 1000 + minor * 100 + stepping (gfx1201 is 12.0.1).
devlib_isa_number = $(word 2,$(subst :, ,$(filter $(1):%,942:9402 1100:11000 1101:11001 1102:11002 \
                                                         1200:12000 1201:12001)))
runtime: device-libs
device-libs: $(DEVLIB_ISA) $(DEVLIB_DIR)/ldsan-hip-compat.h \
             $(foreach n,$(DEVLIB_EXTRA_ISA),$(DEVLIB_DIR)/oclc_isa_version_$(n).bc)

# The directory's symlinks come from the asanrtl.bc rule: run after it, and
# replace the symlink with a file. gfx6-gfx8 (three digits from 6 to 8) flush
# f32 denormals by default, so ocml may assume they are zero there.
$(DEVLIB_DIR)/oclc_isa_version_%.bc: $(ROCM_BITCODE)/oclc_isa_version_%.bc device/devlibs/oclc_daz_opt.ll.in \
                                     $(DEVLIB_DIR)/asanrtl.bc device/device.mk
	case $* in [678][0-9][0-9]) daz=1;; *) daz=0;; esac; \
	layout=$$(echo | $(CLANG) -target amdgcn-amd-amdhsa -nogpulib -x c -emit-llvm -S - -o - | grep '^target datalayout'); \
	{ $(LLVM_DIS) $< -o - | sed "s/^target datalayout = .*/$$layout/"; \
	  sed "s/@DAZ@/$$daz/" device/devlibs/oclc_daz_opt.ll.in; } > $@.ll && \
	rm -f $@ && sed -i 's/linkonce_odr/weak_odr/' $@.ll && $(LLVM_LINK) $@.ll $(DEVLIB_DIR)/ldsan-hip.bc -o $@ && rm -f $@.ll

$(foreach n,$(DEVLIB_EXTRA_ISA),$(DEVLIB_DIR)/oclc_isa_version_$(n).bc): \
      $(DEVLIB_DIR)/oclc_isa_version_%.bc: device/devlibs/oclc_isa_version.ll.in device/devlibs/oclc_daz_opt.ll.in \
                                     $(DEVLIB_DIR)/asanrtl.bc device/device.mk
	layout=$$(echo | $(CLANG) -target amdgcn-amd-amdhsa -nogpulib -x c -emit-llvm -S - -o - | grep '^target datalayout'); \
	{ echo "$$layout"; echo 'target triple = "amdgcn-amd-amdhsa"'; \
	  sed "s/@ISA@/$(call devlib_isa_number,$*)/" device/devlibs/oclc_isa_version.ll.in; \
	  sed "s/@DAZ@/0/" device/devlibs/oclc_daz_opt.ll.in; } > $@.ll && \
	rm -f $@ && sed -i 's/linkonce_odr/weak_odr/' $@.ll && $(LLVM_LINK) $@.ll $(DEVLIB_DIR)/ldsan-hip.bc -o $@ && rm -f $@.ll

$(DEVLIB_DIR)/ldsan-hip-compat.h: device/devlibs/ldsan-hip-compat.h $(DEVLIB_DIR)/asanrtl.bc
	cp $< $@

# ---- traced cost (make bench: test/bench/traced_cost.py) ----------------------
# The runtime again with line tables, same flags and pipeline otherwise: the
# script maps each device instruction to its chain of inlined calls.
DEVICE_LINES_BCS := $(patsubst device/%.c,$(BUILD)/device-lines/%.bc,$(DEVICE_SRCS))
$(BUILD)/device-lines/%.bc: device/%.c $(DEVICE_HDRS)
	@mkdir -p $(@D)
	$(CLANG) $(DEVICE_CFLAGS) -gline-tables-only -c $< -o $@
$(BUILD)/lib/ldsan-rt-lines.bc: $(DEVICE_LINES_BCS)
	@mkdir -p $(@D)
	$(call link_runtime,$(DEVICE_LINES_BCS),$@)
# host_runtime_program <extra flags>: $@ from its first prerequisite (a C main)
# and the host build of the runtime, compiled together.
host_runtime_program = $(CLANG) $(HOST_CFLAGS) $(WARN) -Werror -Iinclude -Idevice -Itest/device $(1) $< \
                       $(DEVICE_SRCS) device/target_host.c -o $@
# The host build of the runtime with clang's source coverage, driven through
# one workgroup's block (test/bench/trace_block_path.c).
$(BUILD)/bench/trace_block_path: test/bench/trace_block_path.c test/device/unit.h $(DEVICE_SRCS) device/target_host.c $(DEVICE_HDRS)
	@mkdir -p $(@D)
	$(call host_runtime_program,-fprofile-instr-generate -fcoverage-mapping)
.PHONY: trace-tools
trace-tools: $(BUILD)/lib/ldsan-rt-lines.bc $(BUILD)/bench/trace_block_path
TEST_TARGETS += trace-tools

# make bench: the store's throughput on this CPU, many threads as workgroups.
$(BUILD)/bench/store_throughput: test/bench/store_throughput.c test/device/unit.h $(DEVICE_SRCS) device/target_host.c $(DEVICE_HDRS)
	@mkdir -p $(@D)
	$(call host_runtime_program,-pthread)
.PHONY: store-bench traced-cost-bench
bench: store-bench traced-cost-bench
store-bench: $(BUILD)/bench/store_throughput
	$(BUILD)/bench/store_throughput
traced-cost-bench: all trace-tools
	BUILD=$(BUILD) test/bench/traced_cost.py
