# tools/: the ldsan-cc driver and the device-library directory it points clang at.
.PHONY: driver
driver: $(BUILD)/bin/ldsan-cc $(BUILD)/lib/ldsan.cfg $(BUILD)/lib/amdgcn-bitcode/asanrtl.bc

# tools/input_kind.c: what an input is, one rule shared with the --emulate driver.
# tools/openmp_check.c: where this clang's OpenMP header and runtime are (Debian:
# libomp-<N>-dev), so that -fopenmp without them is a clear error.
LDSAN_CC_DEFS = -DLDSAN_DEFAULT_CLANG='"$(CLANGXX)"' \
  -DLDSAN_OPENMP_HEADER='"$(shell $(CLANG) -print-resource-dir)/include/omp.h"' \
  -DLDSAN_OPENMP_LIBRARY='"$(shell $(LLVM_CONFIG) --libdir)/libomp.so"' \
  -DLDSAN_OPENMP_PACKAGE='"libomp-$(LLVM_VERSION)-dev"'
LDSAN_CC_SRCS = tools/ldsan-cc.c tools/input_kind.c tools/sanitize_mode.c tools/openmp_check.c
$(BUILD)/bin/ldsan-cc: $(LDSAN_CC_SRCS) tools/input_kind.h tools/sanitize_mode.h tools/openmp_check.h
	@mkdir -p $(dir $@)
	$(CLANG) $(HOST_CFLAGS) $(LDSAN_CC_DEFS) -o $@ $(filter %.c,$^)

# ldsan's clang flags as a clang configuration file (ldsan-cc passes --config=).
$(BUILD)/lib/ldsan.cfg: tools/ldsan.cfg
	@mkdir -p $(dir $@)
	cp $< $@

# Debian's ROCm device libraries, linked one by one, with asanrtl.bc replaced:
# clang links asanrtl.bc (-mlink-bitcode-file) for -fsanitize=address, and ROCm
# 5.2's predates the entry points clang 22 calls; ldsan's runtime (linked by the
# plugin) replaces it, so the slot holds an empty module. ROCm's hip.bc, which
# clang 22 no longer links but ROCm 5.2's headers need (__atomic_work_item_fence),
# becomes ldsan-hip.bc, re-stamped with clang 22's amdgcn data layout so linking
# it raises no warning; device/device.mk links it into every
# oclc_isa_version_<N>.bc, which clang links in every mode (the LDS-only mode has
# no asanrtl.bc).
$(BUILD)/lib/amdgcn-bitcode/asanrtl.bc:
	@test -d $(ROCM_BITCODE) || { echo "ldsan: error: $(ROCM_BITCODE) not found; run 'make deps' (needs rocm-device-libs)" >&2; exit 1; }
	@mkdir -p $(dir $@)
	@for f in $(ROCM_BITCODE)/*.bc; do [ "$$(basename $$f)" = asanrtl.bc ] || ln -sf $$f $(dir $@); done
	layout=$$(echo | $(CLANG) -target amdgcn-amd-amdhsa -nogpulib -x c -emit-llvm -S - -o - | grep '^target datalayout'); \
	$(LLVM_DIS) $(ROCM_BITCODE)/hip.bc -o - | sed -e "s/^target datalayout = .*/$$layout/" -e 's/linkonce_odr/weak_odr/' | llvm-as-$(LLVM_VERSION) -o $(dir $@)ldsan-hip.bc && \
	{ echo "$$layout"; echo 'target triple = "amdgcn-amd-amdhsa"'; } | llvm-as-$(LLVM_VERSION) -o $@

# CMake: ldsan's toolchain file, and the build directory laid out as the ROCm
# root CMake's HIP language expects (ldsan-cc -v names it; see
# tools/hip-lang-config.cmake and tools/ldsan-toolchain.cmake):
# lib/cmake/hip-lang -> ldsan's hip-lang package, which loads the system's,
# lib/cmake/hip-lang-system -> the system's (Debian: /usr/lib/<multiarch>/cmake),
# lib/clang -> clang's resource directories (hip-lang looks for the builtins
# library next to the compiler). Before ldsan had its own package,
# lib/cmake/hip-lang was a link to the system's: that link is removed, not
# written through.
.PHONY: cmake-support
driver: cmake-support
HIP_LANG_DIR ?= $(firstword $(wildcard /usr/lib/*/cmake/hip-lang /usr/lib/cmake/hip-lang /opt/rocm/lib/cmake/hip-lang))
cmake-support: $(BUILD)/lib/cmake/ldsan/ldsan-toolchain.cmake
	@mkdir -p $(BUILD)/lib/cmake
	@if [ -L $(BUILD)/lib/cmake/hip-lang ]; then rm -f $(BUILD)/lib/cmake/hip-lang; fi
	@if [ -n "$(HIP_LANG_DIR)" ]; then ln -sfn "$(HIP_LANG_DIR)" $(BUILD)/lib/cmake/hip-lang-system && \
	   mkdir -p $(BUILD)/lib/cmake/hip-lang && cmp -s tools/hip-lang-config.cmake $(BUILD)/lib/cmake/hip-lang/hip-lang-config.cmake || \
	   cp tools/hip-lang-config.cmake $(BUILD)/lib/cmake/hip-lang/hip-lang-config.cmake; \
	 else rm -rf $(BUILD)/lib/cmake/hip-lang $(BUILD)/lib/cmake/hip-lang-system; \
	   echo "ldsan: note: no hip-lang CMake package (libamdhip64-dev); CMake's HIP language will not work" >&2; fi
	@ln -sfn "$$(dirname "$$($(CLANG) -print-resource-dir)")" $(BUILD)/lib/clang

$(BUILD)/lib/cmake/ldsan/ldsan-toolchain.cmake: tools/ldsan-toolchain.cmake
	@mkdir -p $(dir $@)
	cp $< $@

# ldsan-gdb: gdb with ldsan's commands for emulated kernels (tools/ldsan-gdb.py).
.PHONY: gdb-support
driver: gdb-support
gdb-support: $(BUILD)/bin/ldsan-gdb $(BUILD)/lib/ldsan-gdb.py
$(BUILD)/bin/ldsan-gdb: tools/ldsan-gdb
	@mkdir -p $(dir $@)
	cp $< $@
$(BUILD)/lib/ldsan-gdb.py: tools/ldsan-gdb.py
	@mkdir -p $(dir $@)
	cp $< $@

# The --emulate driver (ldsan-cc --emulate execs it): tools/cc_emulate.c, with
# tools/rdc_bitcode.c (-fgpu-rdc); it reads the retarget tool's exit status
# (include/ldsan/emu/retarget_exit.h).
EMU_DRIVER_SRCS := tools/cc_emulate.c tools/rdc_bitcode.c tools/input_kind.c tools/sanitize_mode.c
EMU_DRIVER_DEFS := -D_GNU_SOURCE -Iinclude -DLDSAN_DEFAULT_CLANG='"$(CLANG)"' -DLDSAN_DEFAULT_CLANGXX='"$(CLANGXX)"' \
  -DLDSAN_DEFAULT_NM='"llvm-nm-$(LLVM_VERSION)"' -DLDSAN_DEFAULT_OBJCOPY='"llvm-objcopy-$(LLVM_VERSION)"' \
  -DLDSAN_DEFAULT_LLVM_LINK='"$(LLVM_LINK)"' -DLDSAN_DEFAULT_OPT='"$(OPT)"'
driver: $(BUILD)/libexec/ldsan-cc-emulate
$(BUILD)/libexec/ldsan-cc-emulate: $(EMU_DRIVER_SRCS) tools/rdc_bitcode.h tools/input_kind.h tools/sanitize_mode.h \
    include/ldsan/emu/retarget_exit.h
	@mkdir -p $(dir $@)
	$(CLANG) $(HOST_CFLAGS) $(EMU_DRIVER_DEFS) -o $@ $(filter %.c,$^)

# docs/options.md, the options reference, is generated from host/flags.inc by
# tools/options_doc.c: `make docs` rewrites it; the test host/options-doc
# (test/host/options_doc.sh) fails when the committed page is out of date.
OPTIONS_DOC := $(BUILD)/tools/options_doc
$(OPTIONS_DOC): tools/options_doc.c host/flags.inc host/internal.h include/ldsan/host.h
	@mkdir -p $(dir $@)
	$(CLANG) $(HOST_CFLAGS) -Ihost -Iinclude -o $@ tools/options_doc.c
TEST_TARGETS += $(OPTIONS_DOC)
.PHONY: docs
docs: $(OPTIONS_DOC)
	$(OPTIONS_DOC) > docs/options.md.tmp && mv docs/options.md.tmp docs/options.md
