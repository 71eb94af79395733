# test/gpu/: libhsa-double.so, a test double of the ROCm HSA runtime (ROCr),
# so that HSA tools code (host/hsa/) can be tested without a GPU, and its
# self-test (test/gpu.list).
#   make gpu-double        build/test/gpu/libhsa-double.so (soname libhsa-double.so)
#   make gpu-double-tests  + libhsa-double-asan.so, libdummy_tool.so and
#                          libhsad_probe_tool.so, two code objects from ldsan-cc and
#                          the self-test (ASan+UBSan, and plain)
# The double is C++17 over ROCm 5.2's headers (hsa_api_trace.h needs C++ and,
# without AMD_INTERNAL_BUILD, includes "inc/hsa_ext_amd.h").
.PHONY: gpu-double gpu-double-tests

GPU_T          := $(BUILD)/test/gpu
HSAD_SRCS      := $(wildcard test/gpu/hsa_double/*.cpp)
HSAD_OBJS      := $(HSAD_SRCS:test/gpu/hsa_double/%.cpp=$(BUILD)/obj/test/gpu/hsa_double/%.o)
HSAD_ASAN_OBJS := $(HSAD_SRCS:test/gpu/hsa_double/%.cpp=$(BUILD)/obj/test/gpu/hsa_double_asan/%.o)
HSA_INCLUDE    := -DAMD_INTERNAL_BUILD -I/usr/include/hsa
HSAD_CXXFLAGS  := -O2 -g -std=c++17 -Wall -Wextra -fPIC -fvisibility=hidden -pthread $(HSA_INCLUDE)
HSAD_LIB       := $(GPU_T)/libhsa-double.so
HSAD_ASAN_LIB  := $(GPU_T)/libhsa-double-asan.so
GPU_TOOL       := $(GPU_T)/libdummy_tool.so
GPU_COS        := $(GPU_T)/static_lds.gfx90a.co $(GPU_T)/static_lds.gfx942.co
GPU_SELFTESTS  := $(GPU_T)/double_selftest $(GPU_T)/double_selftest_plain
GPU_PROBE_TOOL := $(GPU_T)/libhsad_probe_tool.so
LDSAN_CC_DEPS  := $(BUILD)/bin/ldsan-cc $(BUILD)/lib/amdgcn-bitcode/asanrtl.bc $(BUILD)/lib/ldsan-rt.bc $(INSTRUMENT_SO)

gpu-double: $(HSAD_LIB)
gpu-double-tests: $(HSAD_LIB) $(HSAD_ASAN_LIB) $(GPU_TOOL) $(GPU_PROBE_TOOL) $(GPU_COS) $(GPU_SELFTESTS)
TEST_TARGETS += gpu-double-tests

$(BUILD)/obj/test/gpu/hsa_double/%.o: test/gpu/hsa_double/%.cpp
	@mkdir -p $(@D)
	$(CLANGXX) $(HSAD_CXXFLAGS) -MMD -MP -c $< -o $@

# -fno-sanitize=enum: the HSA API passes extension values through base enum
# types (HSA_AMD_AGENT_INFO_* as hsa_agent_info_t, ...), outside the C++ range
# of those enums; ROCr and its callers rely on it.
HSAD_SAN_FLAGS := $(SAN_FLAGS) -fno-sanitize=enum

$(BUILD)/obj/test/gpu/hsa_double_asan/%.o: test/gpu/hsa_double/%.cpp
	@mkdir -p $(@D)
	$(CLANGXX) $(HSAD_CXXFLAGS) $(HSAD_SAN_FLAGS) -MMD -MP -c $< -o $@

HSAD_EXPORTS   := -Wl,--version-script=test/gpu/hsa_double/exports.map

$(HSAD_LIB): $(HSAD_OBJS) test/gpu/hsa_double/exports.map
	@mkdir -p $(@D)
	$(CLANGXX) -shared -Wl,-soname,libhsa-double.so -Wl,-z,defs $(HSAD_EXPORTS) -pthread $(HSAD_OBJS) -ldl -o $@

# Sanitizer runtime symbols come from the (sanitized) executable.
$(HSAD_ASAN_LIB): $(HSAD_ASAN_OBJS) test/gpu/hsa_double/exports.map
	@mkdir -p $(@D)
	$(CLANGXX) -shared $(HSAD_SAN_FLAGS) -Wl,-soname,libhsa-double-asan.so $(HSAD_EXPORTS) -pthread $(HSAD_ASAN_OBJS) -ldl -o $@

$(GPU_TOOL): test/gpu/dummy_tool.cpp test/gpu/dummy_tool.h
	@mkdir -p $(@D)
	$(CLANGXX) $(HSAD_CXXFLAGS) -Itest/gpu -shared -Wl,-z,defs $< -o $@

# The self-test's second tool: plain C, no sanitizer (like libdummy_tool.so).
$(GPU_PROBE_TOOL): test/gpu/hsa_double/selftest/probe_tool.c test/gpu/hsa_double/selftest/probe_tool.h
	@mkdir -p $(@D)
	$(CLANG) $(HOST_CFLAGS) -fPIC -fvisibility=hidden -shared -Wl,-z,defs $< -o $@

# $(GPU_T)/<name>.<arch>.co: test/compile/<name>.hip built by ldsan-cc for <arch>:xnack+.
GPU_ARCHS := gfx90a gfx942
define gpu_code_object
$$(GPU_T)/%.$(1).co: test/compile/%.hip test/compile/mini_hip.inc $$(LDSAN_CC_DEPS)
	@mkdir -p $$(@D)
	$$(BUILD)/bin/ldsan-cc --offload-arch=$(1):xnack+ --offload-device-only --no-gpu-bundle-output -O2 \
	  -nogpuinc -nogpulib -c $$< -o $$@
endef
$(foreach arch,$(GPU_ARCHS),$(eval $(call gpu_code_object,$(arch))))
# $(GPU_T)/<name>.gfx90a-lds.co: the LDS-only mode's (ldsan-cc -fsanitize=lds), for
# gfx90a without xnack (xnack "any": it loads on either mode's agents).
$(GPU_T)/%.gfx90a-lds.co: test/compile/%.hip test/compile/mini_hip.inc $(LDSAN_CC_DEPS) $(BUILD)/lib/ldsan-rt-lds.bc
	@mkdir -p $(@D)
	$(BUILD)/bin/ldsan-cc -fsanitize=lds --offload-arch=gfx90a --offload-device-only --no-gpu-bundle-output -O2 \
	  -nogpuinc -nogpulib -c $< -o $@

# The self-test: double_selftest.c runs the phases, test/gpu/hsa_double/selftest/*.c
# hold the checks (probe_tool.c there is the tools library some of them load).
GPU_SELFTEST_SRCS := test/gpu/double_selftest.c $(filter-out %/probe_tool.c,$(wildcard test/gpu/hsa_double/selftest/*.c))
GPU_SELFTEST_DEPS := $(GPU_SELFTEST_SRCS) $(wildcard test/gpu/hsa_double/selftest/*.h) test/gpu/dummy_tool.h \
                     test/gpu/hsa_double/hsa_double.h include/ldsan/abi.h
GPU_SELFTEST_INC  := -Iinclude -Itest/gpu -Itest/gpu/hsa_double

$(GPU_T)/double_selftest: $(GPU_SELFTEST_DEPS) $(HSAD_ASAN_LIB)
	$(CLANG) $(HOST_CFLAGS) $(SAN_FLAGS) $(GPU_SELFTEST_INC) -Itest/gpu/hsa_double/selftest $(GPU_SELFTEST_SRCS) -L$(GPU_T) -lhsa-double-asan \
	  -Wl,-rpath,'$$ORIGIN' -ldl -pthread -o $@

$(GPU_T)/double_selftest_plain: $(GPU_SELFTEST_DEPS) $(HSAD_LIB)
	$(CLANG) $(HOST_CFLAGS) $(GPU_SELFTEST_INC) -Itest/gpu/hsa_double/selftest $(GPU_SELFTEST_SRCS) -L$(GPU_T) -lhsa-double -Wl,-rpath,'$$ORIGIN' \
	  -ldl -pthread -o $@

-include $(HSAD_OBJS:.o=.d) $(HSAD_ASAN_OBJS:.o=.d)

# ---- ldsan's HSA tools library over the double (test/gpu/gpu_tool.sh) -------------
# tool_scenarios: a CLR-like HSA program with a simulated GPU (sim_device.c), built
# with ASan+UBSan against the sanitized double; it gets ldsan's sanitized tools
# library through HSA_TOOLS_LIB. tool_scenarios_linked links that library in,
# as ldsan-cc does for a HIP program.
GPU_SCENARIO_SRCS := test/gpu/tool_scenarios.c test/gpu/sim_device.c
GPU_SCENARIO_DEPS := $(GPU_SCENARIO_SRCS) test/gpu/sim_device.h test/gpu/hsa_double/hsa_double.h include/ldsan/abi.h
GPU_SCENARIOS     := $(GPU_T)/tool_scenarios $(GPU_T)/tool_scenarios_linked $(GPU_T)/tool_scenarios_plain
GPU_TOOL_COS      := $(GPU_COS) $(GPU_T)/dynamic_lds.gfx90a.co $(GPU_T)/static_lds.gfx90a-lds.co

gpu-tool-tests: $(GPU_SCENARIOS) $(GPU_TOOL_COS) $(HSA_TOOL_ASAN_LIB) $(HSA_TOOL_LIB)
TEST_TARGETS += gpu-tool-tests
.PHONY: gpu-tool-tests

$(GPU_T)/tool_scenarios: $(GPU_SCENARIO_DEPS) $(HSAD_ASAN_LIB)
	$(CLANG) $(HOST_CFLAGS) $(SAN_FLAGS) $(GPU_SELFTEST_INC) $(GPU_SCENARIO_SRCS) -L$(GPU_T) -lhsa-double-asan \
	  -Wl,-rpath,'$$ORIGIN' -ldl -pthread -o $@

$(GPU_T)/tool_scenarios_linked: $(GPU_SCENARIO_DEPS) $(HSAD_ASAN_LIB) $(HSA_TOOL_ASAN_LIB)
	$(CLANG) $(HOST_CFLAGS) $(SAN_FLAGS) $(GPU_SELFTEST_INC) $(GPU_SCENARIO_SRCS) -L$(GPU_T) -lhsa-double-asan \
	  -Wl,--push-state,--no-as-needed $(HSA_TOOL_ASAN_LIB) -Wl,--pop-state \
	  -Wl,-rpath,'$$ORIGIN' -Wl,-rpath,$(abspath $(dir $(HSA_TOOL_ASAN_LIB))) -ldl -pthread -o $@

# tool_scenarios_plain: no host ASan anywhere (program, double, ldsan's plain
# libldsan-host.so): the device shadow is then the one ldsan maps itself.
$(GPU_T)/tool_scenarios_plain: $(GPU_SCENARIO_DEPS) $(HSAD_LIB)
	$(CLANG) $(HOST_CFLAGS) $(GPU_SELFTEST_INC) $(GPU_SCENARIO_SRCS) -L$(GPU_T) -lhsa-double \
	  -Wl,-rpath,'$$ORIGIN' -ldl -pthread -o $@
