# tools/: the ldsan-cc driver and the device-library directory it points clang at.
.PHONY: driver
driver: $(BUILD)/bin/ldsan-cc $(BUILD)/lib/amdgcn-bitcode/asanrtl.bc

$(BUILD)/bin/ldsan-cc: tools/ldsan-cc.c
	@mkdir -p $(dir $@)
	$(CLANG) $(HOST_CFLAGS) -o $@ $<

# Debian's ROCm device libraries, linked one by one, with an empty asanrtl.bc:
# clang links asanrtl.bc for -fsanitize=address, and ROCm 5.2's predates the
# entry points clang 22 calls; ldsan's runtime (linked by the plugin) replaces it.
$(BUILD)/lib/amdgcn-bitcode/asanrtl.bc:
	@test -d $(ROCM_BITCODE) || { echo "ldsan: error: $(ROCM_BITCODE) not found; run 'make deps' (needs rocm-device-libs)" >&2; exit 1; }
	@mkdir -p $(dir $@)
	@for f in $(ROCM_BITCODE)/*.bc; do [ "$$(basename $$f)" = asanrtl.bc ] || ln -sf $$f $(dir $@); done
	printf 'target triple = "amdgcn-amd-amdhsa"\n' | llvm-as-$(LLVM_VERSION) -o $@
