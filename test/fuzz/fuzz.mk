# test/fuzz/: libFuzzer targets for the host parsers of untrusted input, each
# run for a bounded, seeded number of inputs by `make check` (test/fuzz.list
# through test/fuzz/run.sh; seed corpora in test/fuzz/corpus/<target>/).
#   make fuzz-targets   build/test/fuzz/<target>: options, descriptor, drain, code_object
# Longer runs: build/test/fuzz/drain -max_total_time=600 /tmp/new test/fuzz/corpus/drain
# The host library is compiled once more with coverage instrumentation
# (-fsanitize=fuzzer-no-link) and ASan+UBSan, so the fuzzer sees inside it.
.PHONY: fuzz-targets

FUZZ_T         := $(BUILD)/test/fuzz
FUZZ_SAN       := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_LINK_SAN  := $(subst fuzzer-no-link,fuzzer,$(FUZZ_SAN))
FUZZ_HOST_OBJS := $(HOST_SRCS:host/%.c=$(BUILD)/obj/host-fuzz/%.o)
FUZZ_HOST_LIB  := $(BUILD)/lib/fuzz/libldsan-host-fuzz.a
FUZZ_TARGETS   := $(FUZZ_T)/options $(FUZZ_T)/descriptor $(FUZZ_T)/drain $(FUZZ_T)/code_object
FUZZ_HSAD_ELF  := test/gpu/hsa_double/elf.cpp

fuzz-targets: $(FUZZ_TARGETS)
TEST_TARGETS += fuzz-targets

$(BUILD)/obj/host-fuzz/%.o: host/%.c
	@mkdir -p $(@D)
	$(CLANG) $(HOST_CFLAGS) $(FUZZ_SAN) $(HOST_INCLUDES) -MMD -MP -c $< -o $@

$(FUZZ_HOST_LIB): $(FUZZ_HOST_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(FUZZ_T)/%: test/fuzz/%_fuzz.c test/fuzz/fuzz.h test/host/host_test.h $(FUZZ_HOST_LIB)
	@mkdir -p $(@D)
	$(CLANG) $(HOST_CFLAGS) $(FUZZ_LINK_SAN) $(HOST_INCLUDES) -Itest/host -MMD -MP $< $(FUZZ_HOST_LIB) -pthread -ldl -o $@

# The double's reader alone: elf.cpp uses nothing else of the double.
$(FUZZ_T)/code_object: test/fuzz/code_object_fuzz.cpp $(FUZZ_HSAD_ELF)
	@mkdir -p $(@D)
	$(CLANGXX) -O2 -g -std=c++17 $(WARN) $(FUZZ_LINK_SAN) -DAMD_INTERNAL_BUILD -I/usr/include/hsa \
	  -Itest/gpu/hsa_double -MMD -MP $< $(FUZZ_HSAD_ELF) -o $@

-include $(FUZZ_HOST_OBJS:.o=.d) $(FUZZ_TARGETS:=.d)
