# ldsan's hip-lang package: the file CMake's HIP language loads from its ROCm
# root (<root>/lib/cmake/hip-lang/hip-lang-config.cmake). `make` installs it in
# <build>/lib/cmake/hip-lang, and ldsan-cc names <build> as its HIP
# installation (`ldsan-cc -v`: "Found HIP installation: <build>, ..."), where
# CMake looks for the ROCm root; so `-DCMAKE_HIP_COMPILER=<build>/bin/ldsan-cc`
# works without ldsan's toolchain file, which uses this root too.
# It loads the system's hip-lang package (<build>/lib/cmake/hip-lang-system
# links to it: Debian's is under /usr/lib/<multiarch>/cmake, not under the
# root clang reports, /usr) after two fixes CMake 3.21-3.27 needs there:
#  - the package's dependencies (amd_comgr) are under /usr/lib/<multiarch>/cmake,
#    which find_package searches only once CMAKE_LIBRARY_ARCHITECTURE is known;
#    CMake's HIP-only check projects load the package before it is;
#  - the package adds `-isystem /usr/include`, which breaks the C++ headers'
#    #include_next until CMake knows /usr/include is implicit (CMake 3.25's
#    UnixPaths.cmake lists it for C, C++ and CUDA only, and the check projects
#    load the package before the HIP compiler's own list is known).

get_filename_component(_ldsan_hip_lang_real "${CMAKE_CURRENT_LIST_DIR}/../hip-lang-system" REALPATH)
if(NOT EXISTS "${_ldsan_hip_lang_real}/hip-lang-config.cmake")
  message(FATAL_ERROR "ldsan: the system's hip-lang CMake package is missing ("
                      "${CMAKE_CURRENT_LIST_DIR}/../hip-lang-system/hip-lang-config.cmake, linked when ldsan "
                      "was built): install libamdhip64-dev (scripts/deps.sh does), run 'make' in the ldsan tree, "
                      "then configure again")
endif()
if(NOT CMAKE_LIBRARY_ARCHITECTURE AND _ldsan_hip_lang_real MATCHES "/lib/([^/]+-linux-gnu[^/]*)/cmake/hip-lang$")
  set(CMAKE_LIBRARY_ARCHITECTURE "${CMAKE_MATCH_1}")
endif()
if(NOT "/usr/include" IN_LIST CMAKE_HIP_IMPLICIT_INCLUDE_DIRECTORIES)
  list(APPEND CMAKE_HIP_IMPLICIT_INCLUDE_DIRECTORIES /usr/include)
endif()
include("${_ldsan_hip_lang_real}/hip-lang-config.cmake")
unset(_ldsan_hip_lang_real)
