# Shared checks on a linked amdgcn code object; sourced by the compile and driver tests.

# Prints the symbols a loader would have to resolve in code object $1: undefined
# dynamic symbols, and undefined symbols that are not local (hidden weak
# references lld resolved to 0, like __start_asan_globals, are local).
unresolved_symbols() {
  { llvm-readelf-"${LLVM_VERSION:-22}" --dyn-syms "$1"; llvm-readelf-"${LLVM_VERSION:-22}" -s "$1"; } \
    | awk '$7 == "UND" && $8 != "" && $5 != "LOCAL" {print $8}' | sort -u
}
