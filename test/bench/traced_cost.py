#!/usr/bin/env python3
"""ldsan's traced device cost (issue #10): what one workgroup executes on the
fast path of its LDS block (take it, write its shadow, poison its redzones,
poison it again at exit, give it back), for each kernel of
test/bench/reference_kernels.hip (one __shared__ array of 1 KiB, one of
40 KiB), per target. No GPU needed; an estimate, computed from the compiler's
output and the runtime's own C:

  1. The code object, built by ldsan-cc with the runtime carrying line tables
     (build/lib/ldsan-rt-lines.bc: same sources, flags and pipeline, plus
     -gline-tables-only), is disassembled, and every instruction symbolized
     to its chain of inlined calls (llvm-symbolizer --inlining).
  2. The same runtime C, built for the host with clang's source coverage
     (build/bench/trace_block_path), is driven through one workgroup of that
     kernel's LDS layout on the warm path: the block comes from the block
     cache, recycled from a block of the same size; the shadow is written by
     a 64-lane wave, of which lane 0 (the busiest: its share of the fills and
     both ends of every range) is what the wave executes.
  3. An instruction's weight is how often the innermost source position
     (line and column: clang's coverage region there) of its chain ran on the
     host (target_amdgcn.h has no host twin: its code counts at its call
     site), scaled at each inlined call by the share of the callee's calls
     that came from that call site (so code inlined at a call site the path
     skips counts 0, and a helper inlined into both __ldsan_poison and
     __ldsan_unpoison is split between them).
  4. The machine's basic blocks run as a whole: each counts its instructions
     the median weight of its instructions (a loop's test sits in its
     preheader and its body with one source position; most instructions of a
     block are its own).

Counted: the kernel's code that comes from ldsan's runtime, and ldsan's
out-of-line functions (__ldsan_poison, __asan_poison_region, ...). Not
counted: the LDS pass's own code in the kernel (loading its layout table,
setting up the calls). The estimate is off where the device's code for a
position differs from the host's (a loop the device unrolls; code the
compiler moved and gave another position).

Usage: traced_cost.py [--check] [--lines] [target ...]  (default gfx942:xnack+ gfx90a:xnack+)
  --check: exit 1 if a kernel is heavier than this ldsan is held to (the
  "held" column: <= 440 instructions for 1 KiB, <= 800 for 40 KiB, <= 2
  global atomics, <= 2 fences, no hostcall), so a change that makes the fast
  path heavier fails (test/compile.list). Issue #10's targets are printed
  beside them. --lines: also each kernel's instructions by the runtime's
  source line they come from (innermost position), heaviest first.
  Environment: BUILD (default build).
"""
import bisect
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, os.environ.get("BUILD", "build"))
SOURCE = os.path.join(ROOT, "test/bench/reference_kernels.hip")
# (kernel, array, issue #10's target, what this ldsan is held to: --check).
# 1 KiB held at 440, above the target: the exit checks its header's seal and
# takes a damaged header's sizes from the pool (issue 36; 394 -> 426 on gfx942).
KERNELS = [("_Z6ref_1kPf", "1 KiB", 400, 440), ("_Z7ref_40kPf", "40 KiB", 800, 800)]
MAX_ATOMICS, MAX_FENCES = 2, 2
ROCM = "ROCm asanrtl (issue #10, llc-22 for gfx942): ~4,700 instructions (1 KiB), ~10,950 + 2 hostcalls (40 KiB); 2 atomics, 4 fence pairs"
ATOMIC = re.compile(r"^(global|flat|buffer)_atomic")
FENCE = re.compile(r"^(buffer_wbl2|buffer_inv|buffer_wbinvl1|buffer_gl[01]_inv)")
BRANCH = re.compile(r"^s_(c)?branch")


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit("traced_cost.py: %s failed:\n%s" % (" ".join(cmd[:2]), r.stderr.strip()))
    return r.stdout


def need(path, what):
    if not os.path.exists(path):
        sys.exit("traced_cost.py: %s (%s) is missing: run 'make trace-tools' first" % (path, what))
    return path


def compile_kernels(target, tmp):
    """The code object (line tables, runtime with line tables) and its LDS descriptors."""
    env = dict(os.environ, LDSAN_RUNTIME=need(os.path.join(BUILD, "lib/ldsan-rt-lines.bc"), "runtime with line tables"))
    cc = need(os.path.join(BUILD, "bin/ldsan-cc"), "the compiler driver")
    base = ["--offload-arch=" + target, "--offload-device-only", "-O2", "-gline-tables-only", SOURCE]
    obj, descs = os.path.join(tmp, "ref.hsaco"), os.path.join(tmp, "descriptors.bin")
    run([cc] + base + ["--no-gpu-bundle-output", "-o", obj], env=env)
    run(["llvm-objcopy-22", "--dump-section", ".ldsan_lds_desc=" + descs, obj, os.path.join(tmp, "scratch.o")])
    return obj, descs


def disassemble(obj):
    """{function: [(address, mnemonic, branch target or None)]}"""
    funcs, cur = {}, None
    for line in run(["llvm-objdump-22", "-d", "--no-show-raw-insn", obj]).splitlines():
        m = re.match(r"^([0-9a-f]+) <([^>]+)>:$", line)
        if m:
            cur = funcs.setdefault(m.group(2), [])
            continue
        m = re.match(r"^\s+([a-z_0-9]+)\b.*// ([0-9A-F]+):", line)
        if m and cur is not None:
            t = re.search(r"<([^+>]+)\+0x([0-9a-f]+)>$", line)
            cur.append((int(m.group(2), 16), m.group(1), (t.group(1), int(t.group(2), 16)) if t else None))
    return funcs


def symbolize(obj, addresses):
    """{address: [(function, file, line, column)] innermost first}"""
    out = run(["llvm-symbolizer-22", "--inlining", "--obj=" + obj], input="\n".join("0x%x" % a for a in addresses) + "\n")
    chains = out.strip("\n").split("\n\n")
    result = {}
    for a, chain in zip(addresses, chains):
        lines = chain.split("\n")
        frames = []
        for i in range(1, len(lines), 2):
            m = re.match(r"^(.*):(\d+):(\d+)$", lines[i])
            if m:
                frames.append((lines[i - 1], os.path.normpath(m.group(1)), int(m.group(2)), int(m.group(3))))
        result[a] = frames
    return result


class Counts:
    """How often the host build ran each piece of the runtime's source:
    clang's coverage regions (a position's count is that of the last region
    starting at or before it), its lines (the largest count on the line, for
    a position without a column), and each function's calls (a static
    function's calls summed over its copies)."""

    def __init__(self, driver, data):
        self.lines, self.calls, src = {}, {}, None
        for line in run(["llvm-cov-22", "export", "-format=lcov", "-instr-profile=" + data, driver]).splitlines():
            if line.startswith("SF:"):
                src = os.path.normpath(line[3:])
            elif line.startswith("DA:"):
                n, c = line[3:].split(",")[:2]
                self.lines[(src, int(n))] = int(c)
            elif line.startswith("FNDA:"):
                c, name = line[5:].split(",", 1)
                name = name.split(":")[-1]  # "block.c:lookup_in": a static function of block.c
                self.calls[name] = self.calls.get(name, 0) + int(c)
        self.segments = {}
        export = json.loads(run(["llvm-cov-22", "export", "-format=text", "-instr-profile=" + data, driver]))
        for f in export["data"][0]["files"]:
            segs = [(l, c, n) for l, c, n, has, _, gap in f["segments"] if has and not gap]
            self.segments[os.path.normpath(f["filename"])] = segs

    def known(self, frame):
        return (frame[1], frame[2]) in self.lines

    def at(self, frame):
        _, path, line, col = frame
        segs = self.segments.get(path, [])
        i = bisect.bisect_right(segs, (line, col, float("inf"))) - 1
        if col == 0 or i < 0 or segs[i][0] != line and not segs[i][0] < line:
            return self.lines[(path, line)]
        return segs[i][2]


def host_counts(descs, kernel, tmp):
    """(block bytes, Counts) of one workgroup's path in the host build."""
    driver = need(os.path.join(BUILD, "bench/trace_block_path"), "host driver with coverage")
    raw, data = os.path.join(tmp, "path.profraw"), os.path.join(tmp, "path.profdata")
    # The profile's name from the start too: the profile runtime would
    # otherwise create an empty default.profraw in the working directory
    # before the driver names its file.
    block = int(run([driver, raw, descs, kernel], env=dict(os.environ, LLVM_PROFILE_FILE=raw)).split()[1])
    run(["llvm-profdata-22", "merge", "-o", data, raw])
    return block, Counts(driver, data)


def weight(frames, counts, runtime_files):
    """How often the instruction with this chain runs on the host's path:
    the count of its innermost position that the host build has (a line of
    target_amdgcn.h, or of a function a macro defines, has none: it counts at
    its call site), times, at each inlined call, the share of the callee's
    calls made there."""
    ours = [f for f in frames if f[1] in runtime_files and counts.known(f)]
    if not ours:
        return 0  # the kernel's or the pass's own code
    w = float(counts.at(ours[0]))
    for callee, site in zip(ours, ours[1:]):
        entered = counts.calls.get(callee[0], 0)
        w = w * counts.at(site) / entered if entered else 0.0
    return w


def basic_blocks(insns, start):
    """insns split where a branch goes to or leaves from: the machine's basic
    blocks, whose instructions all run equally often."""
    leaders = {a for _, _, t in insns if t for a in [start.get(t[0], 0) + t[1]]}
    blocks, cur = [], []
    for insn in insns:
        if cur and insn[0] in leaders:
            blocks.append(cur)
            cur = []
        cur.append(insn)
        if BRANCH.match(insn[1]) or insn[1] in ("s_setpc_b64", "s_endpgm"):
            blocks.append(cur)
            cur = []
    return blocks + ([cur] if cur else [])


def block_weight(insns, chains, counts, runtime_files):
    """How often a basic block runs: the median of its runtime instructions'
    own weights (an instruction's source position may be another block's,
    as a loop's test that also guards its entry; most are the block's own)."""
    ws = sorted(weight(chains.get(a, []), counts, runtime_files) for a, _, _ in insns
                if any(fr[1] in runtime_files for fr in chains.get(a, [])))
    return ws[len(ws) // 2] if ws else 0


def main(argv):
    check = "--check" in argv
    by_line = "--lines" in argv
    targets = [a for a in argv if a not in ("--check", "--lines")] or ["gfx942:xnack+", "gfx90a:xnack+"]
    failed = False
    for target in targets:
        with tempfile.TemporaryDirectory() as tmp:
            obj, descs = compile_kernels(target, tmp)
            funcs = disassemble(obj)
            runtime_fns = [f for f in funcs if f.startswith(("__ldsan_", "__asan_"))]
            hostcalls = [f for f in funcs if "hostcall" in f]
            addrs = sorted(a for f in [k[0] for k in KERNELS] + runtime_fns for a, _, _ in funcs.get(f, []))
            chains = symbolize(obj, addrs)
            start = {f: (insns[0][0] if insns else 0) for f, insns in funcs.items()}
            print("== ldsan traced device cost of one workgroup's LDS block, %s (test/bench/traced_cost.py: an estimate,"
                  " device instructions x host line counts)" % target)
            print("  %-14s %7s %8s %7s %7s %6s %9s %10s %7s %7s" % ("kernel", "array", "block B", "instrs", "atomics",
                                                                       "fences", "hostcalls", "back-jumps", "target",
                                                                       "held"))
            for kernel, label, target_n, held in KERNELS:
                block, counts = host_counts(descs, kernel, tmp)
                runtime_files = {f for f, _ in counts.lines}
                runtime_files = {f for f in runtime_files if f.startswith(os.path.join(ROOT, "device") + os.sep)}
                n = atomics = fences = back = 0
                parts = {}  # instructions by the entry point they came from
                lines = {}  # and by the runtime's source line (--lines)
                for f in [kernel] + runtime_fns:
                    for insns in basic_blocks(funcs.get(f, []), start):
                        w = block_weight(insns, chains, counts, runtime_files)
                        if not w:
                            continue
                        for a, mnemonic, target_of in insns:
                            if not any(fr[1] in runtime_files for fr in chains.get(a, [])):
                                continue  # the kernel's own code in the block
                            n += w
                            ours = [fr for fr in chains[a] if fr[1] in runtime_files]
                            part = ours[-1][0] if f == kernel else f
                            part = part if part.startswith(("__ldsan_", "__asan_")) else "other"
                            parts[part] = parts.get(part, 0) + w
                            if by_line:
                                fr = ours[0]
                                key = "%s:%d (%s)" % (os.path.relpath(fr[1], ROOT), fr[2], fr[0])
                                lines[key] = lines.get(key, 0) + w
                            atomics += w if ATOMIC.match(mnemonic) else 0
                            fences += w if FENCE.match(mnemonic) else 0
                            if BRANCH.match(mnemonic) and target_of and start.get(target_of[0], 0) + target_of[1] <= a:
                                back += w
                n, atomics, fences, back = (int(round(x)) for x in (n, atomics, fences, back))
                ok = n <= held and atomics <= MAX_ATOMICS and fences <= MAX_FENCES and not hostcalls
                failed |= not ok
                print("  %-14s %7s %8d %7d %7d %6d %9d %10d %7s %7s%s" %
                      (kernel, label, block, n, atomics, fences, len(hostcalls), back, "<= %d" % target_n,
                       "<= %d" % held, "" if ok else "   HEAVIER"))
                print("    by entry point: " + ", ".join("%s %d" % (k, round(v)) for k, v in
                                                    sorted(parts.items(), key=lambda kv: -kv[1]) if round(v)))
                for key, v in sorted(lines.items(), key=lambda kv: -kv[1]):
                    if round(v):
                        print("      %6d  %s" % (round(v), key))
            print("  atomics and fences: target and held <= %d each; hostcalls 0" % MAX_ATOMICS)
            print("  " + ROCM)
    if check and failed:
        print("traced_cost.py: a reference kernel's fast path got heavier than it is held to (HEAVIER above): "
              "find what added instructions, atomics or fences (the per-function table of static_cost.sh helps)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
