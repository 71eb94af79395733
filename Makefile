# ldsan — AddressSanitizer companion runtime for software-lowered LDS on AMD GPUs.
#
# ---- change the settings below ------------------------------------------------
LLVM_VERSION ?= 22
CLANG        ?= clang-$(LLVM_VERSION)
CLANGXX      ?= clang++-$(LLVM_VERSION)
LLVM_CONFIG  ?= llvm-config-$(LLVM_VERSION)
OPT          ?= opt-$(LLVM_VERSION)
LLVM_LINK    ?= llvm-link-$(LLVM_VERSION)
LLVM_DIS     ?= llvm-dis-$(LLVM_VERSION)
FILECHECK    ?= FileCheck-$(LLVM_VERSION)
ROCM_BITCODE ?= /usr/lib/x86_64-linux-gnu/amdgcn/bitcode
BUILD        ?= build
# ---------------------------------------------------------------------------------

WARN     := -Wall -Wextra -Werror=implicit-function-declaration
HOST_CFLAGS ?= -O2 -g $(WARN) -std=c11
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer

export LLVM_VERSION CLANG CLANGXX LLVM_CONFIG OPT LLVM_LINK LLVM_DIS FILECHECK ROCM_BITCODE BUILD

.PHONY: all deps check test test-programs bench demo settings clean
all: runtime instrument driver host
# Fragments append what the test suite needs built (unit tests, harnesses).
TEST_TARGETS :=

# Each component adds its targets in its own fragment.
include device/device.mk
include instrument/instrument.mk
include tools/tools.mk
include host/host.mk
include retarget/retarget.mk
include emulator/core.mk
include emulator/hip.mk
include emulator/asan.mk
include test/fuzz/fuzz.mk
include test/gpu/gpu.mk
include test/programs.mk

deps:
	scripts/deps.sh

test-programs: $(TEST_TARGETS)

# make check: the quick tier, before every commit; make test: every test (as CI).
# test/run.sh runs them in parallel (-j$(nproc)); LDSAN_TEST_JOBS=N sets another count.
check: all test-programs trace-tools
	BUILD=$(BUILD) test/run.sh --quick

test: all test-programs
	BUILD=$(BUILD) test/run.sh

demo: all
	scripts/demo.sh

settings:
	@echo "CLANG=$(CLANG) LLVM_CONFIG=$(LLVM_CONFIG) OPT=$(OPT) FILECHECK=$(FILECHECK)"
	@echo "ROCM_BITCODE=$(ROCM_BITCODE) BUILD=$(BUILD)"
	@echo "HOST_CFLAGS=$(HOST_CFLAGS)"

clean:
	rm -rf $(BUILD)
