/* ldsan-cc: whether a command asks for OpenMP, and whether what clang needs
 * for it is installed. clang's -fopenmp compiles against omp.h in its resource
 * directory and links LLVM's OpenMP runtime (-lomp); Debian ships both in
 * libomp-<N>-dev, not with clang, and hipcc's ROCm ships its own, so HIP
 * programs' Makefiles pass -fopenmp (host reference code) expecting them. */
#ifndef LDSAN_TOOLS_OPENMP_CHECK_H
#define LDSAN_TOOLS_OPENMP_CHECK_H

/* Whether argv asks for LLVM's OpenMP runtime: the last of -fopenmp,
 * -fopenmp=libomp (yes), -fno-openmp and -fopenmp=<another runtime> (no). */
int ldsan_cc_wants_openmp(int argc, char **argv);

/* Exits 2 with an error saying what is missing, where, and which package to
 * install, when omp.h (compiles: the command compiles a source) or libomp.so
 * (links: the command links; found in the default place or an -L directory of
 * argv) is missing. For clang's default installation only: the paths are
 * those of the clang ldsan was built with. */
void ldsan_cc_check_openmp(int argc, char **argv, int compiles, int links);

#endif /* LDSAN_TOOLS_OPENMP_CHECK_H */
