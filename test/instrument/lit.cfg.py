# ldsan: lit configuration of the compiler-side tests (test/instrument/*.ll and
# *.hip, each a list of "RUN:" lines checked with FileCheck).
# Run one test:  lit-22 -v test/instrument/static.ll   (or test/instrument/lit.sh)
# The build directory: lit parameter build=DIR, else $BUILD, else build (both
# relative to the repository root); it must hold lib/ldsan-instrument.so and
# test/instrument/desc-dump (make instrument-tests). Tool names come from $OPT,
# $FILECHECK, $LLC, $LLVM_AS, $LLVM_DIS, $LLVM_OBJCOPY, $CLANG (the Makefile's
# settings), else <tool>-$LLVM_VERSION (22).
# Words the RUN lines may use (each is replaced with the command it stands for):
#   opt            $OPT with the ldsan plugin loaded
#   opt-noplugin   $OPT without it
#   FileCheck, llc, llvm-as, llvm-dis, llvm-objcopy, not (LLVM's: inverts the exit status)
#   desc-dump      test/instrument/desc-dump.c: prints descriptor blobs
#   hip-device     clang -x hip for gfx90a:xnack+ with ASan and the plugin, device side only
#   hip-device-plain  clang -x hip with the plugin, no ASan, no target, no HIP headers or
#                  device libraries (the LDS-only mode's compile: add LDSAN_LDS_ONLY=1 and a target)
#   %plugin        the plugin's path;  %rt-lds, %rt-full  the LDS-only and the full device runtime
# Feature hip-headers: /usr/include/hip/hip_runtime.h exists (REQUIRES: hip-headers).
# RUN lines run in bash with pipefail (external shell), every line must succeed.
import os
import re
import shutil

import lit.formats

config.name = "ldsan-instrument"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".ll", ".hip"]
config.excludes = ["stub-rt.ll", "specialize-rt.ll"]  # the stub device runtimes the tests link, not tests
config.test_source_root = os.path.dirname(os.path.abspath(__file__))

repo = os.path.dirname(os.path.dirname(config.test_source_root))
build = lit_config.params.get("build") or os.environ.get("BUILD") or "build"
build = os.path.join(repo, build)  # an absolute build stays absolute
config.test_exec_root = os.path.join(build, "test-tmp", "lit-instrument")

version = os.environ.get("LLVM_VERSION") or "22"


def tool(env_name, name):
    """The command for LLVM tool `name`: $env_name, else name-<version>; must exist."""
    cmd = os.environ.get(env_name) or "%s-%s" % (name, version)
    path = shutil.which(cmd)
    if not path:
        lit_config.fatal("%s not found (set %s, or run 'make deps')" % (cmd, env_name))
    return path


def need(path, how):
    if not os.path.exists(path):
        lit_config.fatal("missing %s: run '%s'" % (path, how))
    return path


plugin = need(os.path.join(build, "lib", "ldsan-instrument.so"), "make instrument")
desc_dump = need(os.path.join(build, "test", "instrument", "desc-dump"), "make instrument-tests")
opt = tool("OPT", "opt")
clang = tool("CLANG", "clang")
hip_device = (
    "%s -x hip --offload-arch=gfx90a:xnack+ -mcode-object-version=5 -D__AMDGCN_WAVEFRONT_SIZE=64 "
    "--rocm-path=/usr -nogpulib -fsanitize=address --offload-device-only -fpass-plugin=%s" % (clang, plugin)
)

hip_device_plain = (
    "%s -x hip -mcode-object-version=5 -nogpulib -nogpuinc --offload-device-only -fpass-plugin=%s" % (clang, plugin)
)
rt_lds = need(os.path.join(build, "lib", "ldsan-rt-lds.bc"), "make runtime")
rt_full = need(os.path.join(build, "lib", "ldsan-rt.bc"), "make runtime")

# A word is replaced only where it stands alone: not inside a path, an option
# or a longer name (opt-noplugin is not opt; /x/opt-22 is not opt).
words = [
    ("hip-device-plain", hip_device_plain),
    ("hip-device", hip_device),
    ("opt-noplugin", opt),
    ("desc-dump", desc_dump),
    ("opt", "%s -load-pass-plugin=%s" % (opt, plugin)),
    ("FileCheck", tool("FILECHECK", "FileCheck")),
    ("llc", tool("LLC", "llc")),
    ("llvm-as", tool("LLVM_AS", "llvm-as")),
    ("llvm-dis", tool("LLVM_DIS", "llvm-dis")),
    ("llvm-objcopy", tool("LLVM_OBJCOPY", "llvm-objcopy")),
    ("not", tool("NOT", "not")),
]
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%rt-lds", rt_lds))
config.substitutions.append(("%rt-full", rt_full))
for word, cmd in words:
    config.substitutions.append((r"(?<![-\w./%=])" + re.escape(word) + r"(?![-\w./])", cmd))

if os.path.exists("/usr/include/hip/hip_runtime.h"):
    config.available_features.add("hip-headers")
