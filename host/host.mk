# ldsan host report library (host/) and its unit tests (test/host/).
#   make host        build/lib/libldsan-host.a (-fPIC) and libldsan-host-asan.a ($(SAN_FLAGS))
#   make host-tests  build/test/host/<name> for every test/host/<name>.c
# Programs linking either archive need -lpthread on old glibc only; C++
# demangling uses the C++ runtime if linked, else dlopen("libstdc++.so.6").
.PHONY: host host-tests

HOST_SRCS      := $(wildcard host/*.c)
HOST_OBJS      := $(HOST_SRCS:host/%.c=$(BUILD)/obj/host/%.o)
HOST_ASAN_OBJS := $(HOST_SRCS:host/%.c=$(BUILD)/obj/host-asan/%.o)
HOST_LIB       := $(BUILD)/lib/libldsan-host.a
HOST_ASAN_LIB  := $(BUILD)/lib/libldsan-host-asan.a
HOST_INCLUDES  := -Iinclude -Ihost
HOST_TEST_SRCS := $(wildcard test/host/*_test.c)
HOST_TESTS     := $(HOST_TEST_SRCS:test/host/%.c=$(BUILD)/test/host/%)

host: $(HOST_LIB) $(HOST_ASAN_LIB)
host-tests: $(HOST_TESTS)
TEST_TARGETS += host-tests

$(BUILD)/obj/host/%.o: host/%.c
	@mkdir -p $(@D)
	$(CLANG) $(HOST_CFLAGS) -fPIC $(HOST_INCLUDES) -MMD -MP -c $< -o $@

$(BUILD)/obj/host-asan/%.o: host/%.c
	@mkdir -p $(@D)
	$(CLANG) $(HOST_CFLAGS) $(SAN_FLAGS) -fPIC $(HOST_INCLUDES) -MMD -MP -c $< -o $@

$(HOST_LIB): $(HOST_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(HOST_ASAN_LIB): $(HOST_ASAN_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/test/host/%: test/host/%.c test/host/host_test.h $(HOST_ASAN_LIB)
	@mkdir -p $(@D)
	$(CLANG) $(HOST_CFLAGS) $(SAN_FLAGS) $(HOST_INCLUDES) -MMD -MP $< $(HOST_ASAN_LIB) -pthread -o $@

-include $(HOST_OBJS:.o=.d) $(HOST_ASAN_OBJS:.o=.d) $(HOST_TESTS:=.d)

# ---- libldsan-host.so: the HSA tools library (host/ + host/hsa/) ------------------
#   build/lib/libldsan-host.so        plain, what ldsan-cc links into GPU programs
#   build/lib/asan/libldsan-host.so   ASan+UBSan build of the same, for the tests
# hsa_table.cpp is C++ only because ROCm's hsa_api_trace.h is; it uses no C++
# runtime, so the library links with the C driver and needs no libstdc++.
# Built against Debian's ROCm headers (libhsa-runtime-dev); never linked against
# libhsa-runtime64: every HSA function comes from the table OnLoad receives.
comma := ,
HSA_INCLUDE   ?= /usr/include/hsa
HSA_TOOL_C    := $(wildcard host/hsa/*.c)
HSA_TOOL_CXX  := host/hsa/hsa_table.cpp
HSA_TOOL_OBJS := $(HSA_TOOL_C:host/hsa/%.c=$(BUILD)/obj/host-hsa/%.o) $(BUILD)/obj/host-hsa/hsa_table.o
HSA_TOOL_ASAN_OBJS := $(HSA_TOOL_OBJS:$(BUILD)/obj/host-hsa/%=$(BUILD)/obj/host-hsa-asan/%)
HSA_TOOL_LIB  := $(BUILD)/lib/libldsan-host.so
HSA_TOOL_ASAN_LIB := $(BUILD)/lib/asan/libldsan-host.so
HSA_CXXFLAGS  := -O2 -g $(WARN) -std=c++17 -fno-exceptions -fno-rtti -fPIC -DAMD_INTERNAL_BUILD -I$(HSA_INCLUDE)
HSA_LDFLAGS   := -shared -Wl,-soname,libldsan-host.so -Wl,-z,defs -pthread -ldl

host: $(HSA_TOOL_LIB) $(HSA_TOOL_ASAN_LIB)

$(BUILD)/obj/host-hsa/%.o: host/hsa/%.c host/hsa/hsa_tool.h
	@mkdir -p $(@D)
	$(CLANG) $(HOST_CFLAGS) -fPIC $(HOST_INCLUDES) -MMD -MP -c $< -o $@
$(BUILD)/obj/host-hsa/hsa_table.o: $(HSA_TOOL_CXX) host/hsa/hsa_tool.h
	@mkdir -p $(@D)
	$(CLANGXX) $(HSA_CXXFLAGS) $(HOST_INCLUDES) -MMD -MP -c $< -o $@
$(BUILD)/obj/host-hsa-asan/%.o: host/hsa/%.c host/hsa/hsa_tool.h
	@mkdir -p $(@D)
	$(CLANG) $(HOST_CFLAGS) $(SAN_FLAGS) -fPIC $(HOST_INCLUDES) -MMD -MP -c $< -o $@
$(BUILD)/obj/host-hsa-asan/hsa_table.o: $(HSA_TOOL_CXX) host/hsa/hsa_tool.h
	@mkdir -p $(@D)
	$(CLANGXX) $(HSA_CXXFLAGS) $(SAN_FLAGS) $(HOST_INCLUDES) -MMD -MP -c $< -o $@

$(HSA_TOOL_LIB): $(HSA_TOOL_OBJS) $(HOST_OBJS)
	@mkdir -p $(@D)
	$(CLANG) $^ $(HSA_LDFLAGS) -o $@
# Sanitized: undefined __asan_*/__ubsan_* come from the sanitized program that loads it.
$(HSA_TOOL_ASAN_LIB): $(HSA_TOOL_ASAN_OBJS) $(HOST_ASAN_OBJS)
	@mkdir -p $(@D)
	$(CLANG) $^ $(filter-out -Wl$(comma)-z$(comma)defs,$(HSA_LDFLAGS)) -o $@

-include $(HSA_TOOL_OBJS:.o=.d) $(HSA_TOOL_ASAN_OBJS:.o=.d)
