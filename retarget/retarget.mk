# retarget/: ldsan-emu-retarget, the LLVM IR tool that turns a kernel's lowered
# amdgcn device bitcode into an x86-64 object the CPU emulator runs (the twin of
# instrument/, the pass plugin of GPU builds). Included by the top Makefile,
# before emulator/core.mk.
#   $(BUILD)/bin/ldsan-emu-retarget    amdgcn device bitcode -> x86-64 object
EMU_RETARGET := $(BUILD)/bin/ldsan-emu-retarget
# The contracts between the retarget tool, the emulator core and the emulated
# HIP layer (image tables, TLS layout, wave operations, LDS tracking).
EMU_CONTRACTS := $(wildcard include/ldsan/emu/*.h)

EMU_RT_SRC := $(wildcard retarget/*.c)
# Work-item loop formation and debug info need LLVM's C++ API (no C API for them).
EMU_RT_CXX := $(wildcard retarget/*.cpp)
EMU_RT_CXX_OBJ := $(EMU_RT_CXX:retarget/%.cpp=$(BUILD)/obj/retarget/%.o)
# include/: the ABI and the emulator's contracts; the repository root: the
# LLVM helpers shared with the pass plugin (instrument/MemOps.h, AsanShadow.h).
EMU_RT_INCLUDES := -Iinclude -I.
EMU_RT_CFLAGS := $(HOST_CFLAGS) -D_GNU_SOURCE -fno-omit-frame-pointer $(EMU_RT_INCLUDES)
EMU_RT_CXXFLAGS := $(patsubst -I%,-isystem %,$(shell $(LLVM_CONFIG) --cxxflags)) -fno-rtti -O2 -g -Wall -Wextra \
  $(EMU_RT_INCLUDES)

.PHONY: retarget
retarget: $(EMU_RETARGET)

$(BUILD)/obj/retarget/%.o: retarget/%.cpp retarget/retarget.h retarget/retarget_loops.h $(EMU_CONTRACTS) \
    instrument/MemOps.h instrument/AsanShadow.h
	@mkdir -p $(dir $@)
	$(CLANGXX) $(EMU_RT_CXXFLAGS) -c $< -o $@
# The work-item loop pass's files share its private header.
$(filter $(BUILD)/obj/retarget/retarget_wiloop%,$(EMU_RT_CXX_OBJ)): retarget/retarget_wiloop.h

$(EMU_RETARGET): $(EMU_RT_SRC) $(EMU_RT_CXX_OBJ) retarget/retarget.h retarget/retarget_time.h $(EMU_CONTRACTS) \
                 include/ldsan/entry_points.def
	@mkdir -p $(dir $@)
	$(CLANGXX) -x c $(EMU_RT_CFLAGS) -I$(shell $(LLVM_CONFIG) --includedir) $(EMU_RT_SRC) -x none $(EMU_RT_CXX_OBJ) -o $@ \
	  $(shell $(LLVM_CONFIG) --ldflags) $(shell $(LLVM_CONFIG) --libs)
