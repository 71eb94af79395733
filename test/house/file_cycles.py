#!/usr/bin/env python3
"""No product file reaches back into the file that drives it.

For each component, the files are the nodes of a graph and "A uses a function or
variable that B defines" is an edge A -> B (from the symbol tables of their
objects, llvm-nm). A cycle means two files drive each other; the check fails and
prints each cycle with the symbols on its edges. Objects come from the build
(make builds them); sources make builds straight into a binary (retarget/*.c,
tools/*.c, instrument/*.cpp) are compiled here into $BUILD/test/house/.
Usage: test/house/file_cycles.py COMPONENT...  (from the repository root)
Components: host, host-hsa, emulator-core, emulator-hip, device, retarget, tools, instrument.
"""
import glob
import os
import shlex
import subprocess
import sys

BUILD = os.environ.get("BUILD", "build")
VERSION = os.environ.get("LLVM_VERSION", "22")
NM = "llvm-nm-" + VERSION
CC = os.environ.get("CLANG", "clang-" + VERSION)
CXX = "clang++-" + VERSION


def llvm_cflags(kind):
    out = subprocess.run(["llvm-config-" + VERSION, "--" + kind], capture_output=True, text=True, check=True)
    return shlex.split(out.stdout)


def built(src_glob, obj_dir, suffix=".o", skip=()):
    """The build's objects of the sources that exist (a stale object of a removed source is left out)."""
    objs = []
    for src in sorted(glob.glob(src_glob)):
        if src in skip:
            continue
        obj = os.path.join(obj_dir, os.path.splitext(os.path.basename(src))[0] + suffix)
        if not os.path.exists(obj):
            sys.exit("file_cycles: %s is missing (run make)" % obj)
        objs.append((src, obj))
    return objs


def compiled(src_glob, compiler, flags, name):
    """Objects compiled here, again whenever the source is newer."""
    out_dir = os.path.join(BUILD, "test", "house", name)
    os.makedirs(out_dir, exist_ok=True)
    objs = []
    for src in sorted(glob.glob(src_glob)):
        obj = os.path.join(out_dir, os.path.splitext(os.path.basename(src))[0] + ".o")
        if not os.path.exists(obj) or os.path.getmtime(obj) < os.path.getmtime(src):
            r = subprocess.run([compiler, "-c", "-O0", "-w"] + flags + [src, "-o", obj], capture_output=True, text=True)
            if r.returncode:
                sys.exit("file_cycles: cannot compile %s:\n%s" % (src, r.stderr))
        objs.append((src, obj))
    return objs


def component(name):
    if name == "host":
        return built("host/*.c", BUILD + "/obj/host")
    if name == "host-hsa":  # libldsan-host.so: the host library and the tools library together
        return built("host/*.c", BUILD + "/obj/host") + built("host/hsa/*.c", BUILD + "/obj/host-hsa") + \
            built("host/hsa/*.cpp", BUILD + "/obj/host-hsa")
    if name == "emulator-core":
        return built("emulator/core/*.c", BUILD + "/obj/emucore") + built("emulator/core/*.S", BUILD + "/obj/emucore")
    if name == "emulator-hip":
        return built("emulator/hip/*.c", BUILD + "/obj/emulator/hip")
    if name == "device":  # the device runtime's bitcode (the LDS-only build has every file; not the host target layer)
        return built("device/*.c", BUILD + "/device-lds", ".bc", skip=("device/target_host.c",))
    if name == "retarget":
        return built("retarget/*.cpp", BUILD + "/obj/retarget") + \
            compiled("retarget/*.c", CC, ["-std=c11", "-D_GNU_SOURCE", "-Iinclude", "-I."] + llvm_cflags("cflags"), name)
    if name == "tools":
        return compiled("tools/*.c", CC, ["-std=c11", "-D_GNU_SOURCE", "-Iinclude", "-Ihost", "-I."], name)
    if name == "instrument":
        return compiled("instrument/*.cpp", CXX, llvm_cflags("cxxflags") + ["-fPIC", "-fno-rtti", "-Iinclude", "-I."], name)
    sys.exit("file_cycles: unknown component %r" % name)


def symbols(obj, which):
    out = subprocess.run([NM, which, obj], capture_output=True, text=True, check=True).stdout
    names = set()
    for line in out.splitlines():
        f = line.split()
        if which == "--undefined-only" and f:
            names.add(f[-1])
        elif len(f) >= 3 and f[1] in "TDBRVWu":
            names.add(f[-1])
    return names


def cycles(graph):
    """Strongly connected components of more than one file (Tarjan, iterative)."""
    index, low, on, stack, out, n = {}, {}, set(), [], [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = n[0]; n[0] += 1; stack.append(root); on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = n[0]; n[0] += 1; stack.append(w); on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop(); on.discard(w); comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def check(name):
    files = component(name)
    defined = {src: symbols(obj, "--defined-only") - {"main"} for src, obj in files}
    owner = {}
    for src, syms in defined.items():
        for s in syms:
            owner.setdefault(s, src)
    edges = {}
    for src, obj in files:
        for s in symbols(obj, "--undefined-only"):
            o = owner.get(s)
            if o and o != src:
                edges.setdefault(src, {}).setdefault(o, []).append(s)
    graph = {src: set(edges.get(src, {})) for src, _ in files}
    found = cycles(graph)
    for comp in found:
        print("FAIL %s: these files use each other's functions or variables (a circle):" % name)
        members = set(comp)
        for a in comp:
            for b, syms in sorted(edges.get(a, {}).items()):
                if b in members:
                    print("  %s -> %s: %s" % (a, b, ", ".join(sorted(syms)[:4])))
        print("  Move what both need below them (a file of its own), or let the driver pass it down.")
    if not found:
        print("ok   %s: %d files, %d uses between them, no circle" % (name, len(files), sum(len(v) for v in graph.values())))
    return not found


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    ok = all([check(c) for c in sys.argv[1:]])
    sys.exit(0 if ok else 1)
