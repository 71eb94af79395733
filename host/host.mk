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
