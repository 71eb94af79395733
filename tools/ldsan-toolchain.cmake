# ldsan's CMake toolchain file (installed by `make` as
# <build>/lib/cmake/ldsan/ldsan-toolchain.cmake). Use:
#
#   cmake -S . -B out -DCMAKE_TOOLCHAIN_FILE=<ldsan>/build/lib/cmake/ldsan/ldsan-toolchain.cmake \
#         [-DCMAKE_HIP_ARCHITECTURES=gfx942:xnack+] [-DLDSAN_EMULATE=ON] [-DLDSAN_LDS_ONLY=ON]
#
# It makes ldsan-cc the HIP compiler (CMake's HIP language; unless
# CMAKE_HIP_COMPILER is given) and fixes what CMake 3.21-3.27 needs on
# Debian's ROCm packages:
#  - CMake looks for the hip-lang package at <ROCm root>/lib/cmake/hip-lang
#    and for clang's builtins next to the compiler; Debian installs the first
#    under /usr/lib/<multiarch>/cmake. `make` puts ldsan's hip-lang package
#    (tools/hip-lang-config.cmake, which loads Debian's) and a link to the
#    builtins in the ldsan build directory, which becomes CMake's ROCm root
#    (ldsan-cc -v names it too: -DCMAKE_HIP_COMPILER=ldsan-cc alone finds it);
#  - the hip-lang package adds `-isystem /usr/include`, which breaks the C++
#    headers' #include_next before CMake has learned that /usr/include is
#    implicit (CMake 3.25's UnixPaths.cmake lists it for C, C++ and CUDA only);
#  - CMake's HIP-only check projects do not know Debian's multiarch directory,
#    where the hip-lang package's dependencies (amd_comgr) live.
# Defaults: CMAKE_HIP_ARCHITECTURES gfx90a:xnack+ (device ASan needs xnack+);
# gfx90a with LDSAN_LDS_ONLY=ON (ldsan-cc -fsanitize=lds: LDS checks only, no
# ASan, any target: gfx1100 and other RDNA ones too).
# C++ executables are linked by ldsan-cc whatever compiles their C++ (CMake
# links an executable whose sources are C++ with the C++ compiler, also when
# it uses a HIP shared library): the HIP code is built with ASan, whose
# runtime, and ldsan's host library, only an ldsan-cc link puts in.
# A C++ compiler given as ldsan-cc (-DCMAKE_CXX_COMPILER=<build>/bin/ldsan-cc,
# as hipcc users give hipcc) is used as given: C++ files with kernels compile
# as HIP, see docs/using-ldsan-cc.md.
# LDSAN_EMULATE=ON: every HIP compile and link (and the C++ ones, when the C++
# compiler is ldsan-cc) gets --emulate: the programs' kernels run on ldsan's
# CPU emulator. LDSAN_LDS_ONLY=ON gives them -fsanitize=lds the same way.

get_filename_component(LDSAN_BUILD_DIR "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(LDSAN_CC "${LDSAN_BUILD_DIR}/bin/ldsan-cc")
if(NOT EXISTS "${LDSAN_CC}")
  message(FATAL_ERROR "ldsan: ${LDSAN_CC} is missing: run 'make' in the ldsan tree, then configure again")
endif()
if(NOT EXISTS "${LDSAN_BUILD_DIR}/lib/cmake/hip-lang/hip-lang-config.cmake")
  message(FATAL_ERROR "ldsan: the hip-lang CMake package was not found when ldsan was built "
                      "(${LDSAN_BUILD_DIR}/lib/cmake/hip-lang is missing): install libamdhip64-dev "
                      "(scripts/deps.sh does), run 'make' in the ldsan tree, then configure again")
endif()

if(NOT CMAKE_HIP_COMPILER)
  set(CMAKE_HIP_COMPILER "${LDSAN_CC}")
endif()
set(CMAKE_HIP_COMPILER_ROCM_ROOT "${LDSAN_BUILD_DIR}" CACHE PATH
    "ROCm root CMake's HIP language looks in (ldsan's build directory, whose hip-lang package loads Debian's)")
option(LDSAN_LDS_ONLY "Check LDS only: no AddressSanitizer, any AMD target (ldsan-cc -fsanitize=lds)" OFF)
if(NOT CMAKE_HIP_ARCHITECTURES)
  if(LDSAN_LDS_ONLY)
    set(CMAKE_HIP_ARCHITECTURES "gfx90a" CACHE STRING "HIP targets (the LDS-only mode takes any)")
  else()
    set(CMAKE_HIP_ARCHITECTURES "gfx90a:xnack+" CACHE STRING "HIP targets (ldsan needs xnack+ ones)")
  endif()
endif()
list(APPEND CMAKE_HIP_IMPLICIT_INCLUDE_DIRECTORIES /usr/include)
if(NOT CMAKE_LIBRARY_ARCHITECTURE)
  get_filename_component(_ldsan_hip_lang "${LDSAN_BUILD_DIR}/lib/cmake/hip-lang-system" REALPATH)
  if(_ldsan_hip_lang MATCHES "/lib/([^/]+-linux-gnu[^/]*)/cmake/hip-lang$")
    set(CMAKE_LIBRARY_ARCHITECTURE "${CMAKE_MATCH_1}")
  endif()
endif()

option(LDSAN_EMULATE "Build for ldsan's CPU emulator (ldsan-cc --emulate)" OFF)
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES LDSAN_EMULATE LDSAN_LDS_ONLY)
get_filename_component(_ldsan_cxx "${CMAKE_CXX_COMPILER}" NAME)
# ldsan-cc's own flags, for every HIP compile and link (and the C++ ones when
# the C++ compiler is ldsan-cc; else for the C++ link, which ldsan-cc does).
set(_ldsan_flags "")
if(LDSAN_EMULATE)
  string(APPEND _ldsan_flags " --emulate")
endif()
if(LDSAN_LDS_ONLY)
  string(APPEND _ldsan_flags " -fsanitize=lds")
endif()
set(_ldsan_link_emulate "")
if(_ldsan_flags)
  string(APPEND CMAKE_HIP_FLAGS_INIT "${_ldsan_flags}")
  if(_ldsan_cxx STREQUAL "ldsan-cc")
    string(APPEND CMAKE_CXX_FLAGS_INIT "${_ldsan_flags}")
  else()
    set(_ldsan_link_emulate "${_ldsan_flags}")
  endif()
endif()
if(NOT _ldsan_cxx STREQUAL "ldsan-cc")
  set(CMAKE_CXX_LINK_EXECUTABLE
      "\"${LDSAN_CC}\"${_ldsan_link_emulate} <FLAGS> <CMAKE_CXX_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
endif()
