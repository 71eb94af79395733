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
    r"^unit/",                          # the device runtime's portable C, on the host
    r"^host/",                          # the host report library
    r"^emucore/",                       # the emulator core
    r"^instrument/",                    # the pass plugin, IR in and out
    r"^fuzz/",                          # the fuzz targets, fewer inputs (fuzz/run.sh)
    r"^emulator/(bug|clean|warn|unsupported)_[^/]*$",  # the emulator's bug suite, full mode
    r"^compile/gfx90a/",                # one GPU target's code objects
    r"^gpu/",                           # the HSA tools library over the ROCr double
]

config.suffixes = [".ll", ".hip", ".test"]
config.excludes = ["lib", "corpus", "Output"]
config.test_format = ldsan_lit.LdsanFormat(repo, timeout, QUICK if tier == "quick" else None)

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

# What RUN lines of every folder may use.
config.substitutions.append(("%repo", repo))
config.substitutions.append(("%build", build))
config.ldsan_repo = repo
config.ldsan_build = build
