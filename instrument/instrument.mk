# instrument/ — the ldsan LLVM pass plugin, build/lib/ldsan-instrument.so.
# libLLVM is already in the process that loads the plugin (clang, opt), so
# nothing of LLVM is linked in.
INSTRUMENT_SO   := $(BUILD)/lib/ldsan-instrument.so
INSTRUMENT_SRCS := $(wildcard instrument/*.cpp)
INSTRUMENT_HDRS := $(wildcard instrument/*.h) include/ldsan/abi.h include/ldsan/entry_points.def
INSTRUMENT_CXXFLAGS := $(shell $(LLVM_CONFIG) --cxxflags) -fPIC -fno-rtti -O2 -g \
	-Wall -Wextra -Wno-unused-parameter -Iinclude

.PHONY: instrument
instrument: $(INSTRUMENT_SO)

$(INSTRUMENT_SO): $(INSTRUMENT_SRCS) $(INSTRUMENT_HDRS)
	@mkdir -p $(dir $@)
	$(CLANGXX) $(INSTRUMENT_CXXFLAGS) -shared -o $@ $(INSTRUMENT_SRCS)

# Its compiler-side tests (test/instrument/*.ll, *.hip) run under LLVM's lit
# (test/instrument/lit.local.cfg); desc-dump prints the descriptor blobs they check.
.PHONY: instrument-tests
INSTRUMENT_DESC_DUMP := $(BUILD)/test/instrument/desc-dump
instrument-tests: $(INSTRUMENT_SO) $(INSTRUMENT_DESC_DUMP)
TEST_TARGETS += instrument-tests

$(INSTRUMENT_DESC_DUMP): test/instrument/desc-dump.c include/ldsan/abi.h
	@mkdir -p $(@D)
	$(CLANG) -std=c11 $(WARN) -Werror -Iinclude -o $@ $<
