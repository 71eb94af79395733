# ldsan's test suite: one lit suite over test/ (the format: test/lib/ldsan_lit.py).
#
# Run it with test/run.sh (the README's command runs scripts/test.sh, which builds
# first), or with lit itself from the repository root:
#   lit-22 -sv test/                                  everything
#   lit-22 -sv --param tier=quick test/               the quick tier (make check)
#   lit-22 -v test/instrument/static.ll               one file test
#   lit-22 -v --filter 'emulator/clean_reduction$' test/   one test of a list
# Parameters (--param k=v): build=DIR (else $BUILD, else build; relative to the
# repository root), tier=quick|full (default full), timeout=SECONDS per test
# (default $LDSAN_TEST_TIMEOUT, else 300).
import os
import shutil
import sys

config.name = "ldsan"
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(config.test_source_root)
sys.path.insert(0, os.path.join(config.test_source_root, "lib"))
import ldsan_lit  # noqa: E402  (after the path is set)

build_rel = lit_config.params.get("build") or os.environ.get("BUILD") or "build"
build = os.path.join(repo, build_rel)  # an absolute build stays absolute
config.test_exec_root = os.path.join(build, "test-tmp", "lit")
timeout = int(lit_config.params.get("timeout") or os.environ.get("LDSAN_TEST_TIMEOUT") or 300)
tier = lit_config.params.get("tier", "full")
if tier not in ("quick", "full"):
    lit_config.fatal("tier=%s: want quick or full" % tier)

# The quick tier (make check): what a developer runs before every commit. A test is
# in it when its name matches one of these; everything else runs in the full tier
# (scripts/test.sh, CI).
QUICK = [
    r"^device/",                        # the device runtime's portable C, on the host
    r"^host/",                          # the host report library
    r"^emulator/core/",                 # the emulator core
    r"^instrument/",                    # the pass plugin, IR in and out
    r"^fuzz/",                          # the fuzz targets, fewer inputs (fuzz/run.sh)
    r"^emulator/[^/]*\.(hip|test)$",     # the emulator's test programs (make built them: runs only)
    r"^compile/gfx90a/",                # one GPU target's code objects
    r"^compile/(static|traced)-cost",   # the reference kernels' cost bounds (a CI once failed on them alone)
    r"^gpu/",                           # the HSA tools library over the ROCr double
    r"^house/no-(circle|parent-include)$",  # the structure (not the instrument half: it compiles)
]

config.suffixes = [".ll", ".hip", ".test"]
config.excludes = ["lib", "corpus", "Output"]
config.test_format = ldsan_lit.LdsanFormat(repo, build, timeout, QUICK if tier == "quick" else None)

# Tests see the caller's environment (the Makefile's tool settings: CLANG, OPT, ...),
# but not the caller's sanitizer options, which would change what tests see.
for k, v in os.environ.items():
    if k in ("LDSAN_OPTIONS", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS") or k.startswith("LDSAN_EMU_"):
        continue
    config.environment[k] = v
config.environment["BUILD"] = build_rel
config.environment["LDSAN_TEST_TIER"] = tier

# ShTest files: a RUN line that hangs is ended too (lit needs psutil for it).
try:
    import psutil  # noqa: F401

    lit_config.maxIndividualTestTime = timeout
except ImportError:
    pass

# What RUN lines of every folder may use (test/instrument/lit.local.cfg adds its own):
#   %{exe}, %{exe:MODE}  the file's test program, built by make (test/programs.mk)
#   %run         test/lib/run.sh: runs a program, prints its stderr, stdout and exit status
#   %ldsan-cc    the built ldsan-cc;  %repo, %build  the repository and build directories
#   FileCheck, not  LLVM's ($FILECHECK, $NOT, else <name>-$LLVM_VERSION)
version = os.environ.get("LLVM_VERSION") or "22"
config.substitutions.append(("%repo", repo))
config.substitutions.append(("%build", build))
config.substitutions.append(("%run", os.path.join(config.test_source_root, "lib", "run.sh")))
config.substitutions.append(("%ldsan-cc", os.path.join(build, "bin", "ldsan-cc")))
for word, env_name in (("FileCheck", "FILECHECK"), ("not", "NOT")):
    path = shutil.which(os.environ.get(env_name) or "%s-%s" % (word, version))
    if not path:
        lit_config.fatal("%s-%s not found (set %s, or run scripts/deps.sh)" % (word, version, env_name))
    # Only the word standing alone: not inside a path, an option or a longer name.
    config.substitutions.append((r"(?<![-\w./%=])" + word + r"(?![-\w./])", path))
config.ldsan_repo = repo
config.ldsan_build = build
