#!/usr/bin/env python3
"""Writes the seed corpora of the ldsan fuzz targets (test/fuzz/corpus/<target>/),
a few hand-made inputs per target in each target's input format (see the
comment at the top of test/fuzz/<target>_fuzz.c). The files are committed;
rerun after changing a format:  test/fuzz/seeds.py   (from anywhere).
Besides these, inputs a fuzzer found that once broke something are committed
by hand as corpus/<target>/regress-<what> and are not touched here.
The ABI version and the sizes of the layouts come from include/ldsan/abi.h,
so a seed never goes stale silently: `seeds.py --check` (test fuzz/seeds in
test/fuzz.list) fails when a committed seed differs from what this writes."""
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ABI_H = open(os.path.join(HERE, "..", "..", "include", "ldsan", "abi.h")).read()
ABI = int(re.search(r"#define LDSAN_ABI_VERSION (\d+)u", ABI_H).group(1))


def abi_size(struct_name):
    """The size abi.h's LDSAN_STATIC_ASSERT gives struct_name."""
    return int(re.search(r"sizeof\(%s\) == (\d+)" % struct_name, ABI_H).group(1))


DESC_SIZE, VAR_SIZE, RECORD_SIZE = (abi_size(n) for n in ("ldsan_kernel_desc", "ldsan_var_desc",
                                                           "ldsan_report_record"))
CHECK = "--check" in sys.argv[1:]
stale = []
DESC_MAGIC, READY, WRITING = 0x4B44534C, 0x52454459, 0x57524954
SLOT, DYNAMIC = 1, 2                       # ldsan_var_flags
HAS_DYNAMIC = 1                            # ldsan_kernel_flags
MINI_DESC, MINI_BLOCK, MINI_STATIC = 0x9000, 0x20000, 448   # test/host/host_test.h


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    path = os.path.join(d, name)
    if CHECK:
        old = open(path, "rb").read() if os.path.exists(path) else None
        if old != data:
            stale.append(os.path.relpath(path, os.path.join(HERE, "..", "..")))
        return
    os.makedirs(d, exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def desc_blob(kernel, static_size, flags, var_list, magic=DESC_MAGIC, abi=ABI, pad=True):
    """var_list: (offset, size, redzone, align, flags, name, source, file, line)."""
    base = DESC_SIZE + VAR_SIZE * len(var_list)
    strings = b""

    def s(text):
        nonlocal strings
        if text is None:
            return 0
        off = base + len(strings)
        strings += text.encode() + b"\0"
        return off

    name = s(kernel)
    recs = b""
    for (o, sz, rz, al, fl, n, src, f, line) in var_list:
        recs += struct.pack("<10I", o, sz, rz, al, fl, s(n), s(src), s(f), line, 0)
    total = base + len(strings)
    if pad:
        total = (total + 7) & ~7
    head = struct.pack("<10I", magic, abi, total, len(var_list), name, static_size, 16, flags, 0, 0)
    assert len(head) == DESC_SIZE and len(recs) == VAR_SIZE * len(var_list)
    return (head + recs + strings).ljust(total, b"\0")


MINI_VARS = [(0, 8, 24, 8, SLOT, "llvm.amdgcn.sw.lds.k1", None, None, 0),
             (32, 256, 64, 16, 0, "_ZZ2k1PiiE4tile", "tile", "mini.hip", 12),
             (352, 36, 60, 4, 0, "_ZZ2k1PiiE5other", None, "mini.hip", 13)]


def options():
    write("options", "layered", b"halt_on_error=0:log_path=/tmp/x:detect_leaks=1\0"
          b"halt_on_error=1:color=always:report_format=json")
    write("options", "quoted", b"\0exitcode=7 external_symbolizer_path='/usr/bin/llvm symbolizer',"
          b"dedup=0 report_limit=0x10 print_legend=false")
    write("options", "errors", b"\0color=purple:exitcode=:report_limit=99999999999:=x:log_path=:"
          b"symbolize:x=\"unterminated")
    write("options", "asan-names", b"suppress_equal_pcs=0:abort_on_error=true:print_summary=no\0"
          b"unknown_opt=1 help=1 symbolize=no suppress_equal_pcs=1")


def descriptor():
    dyn = struct.pack("<I", 40)
    write("descriptor", "mini", dyn + desc_blob("_Z2k1Pii", MINI_STATIC, 0, MINI_VARS))
    write("descriptor", "dynamic", dyn + desc_blob(
        "_Z2k1Pii", MINI_STATIC, HAS_DYNAMIC,
        MINI_VARS + [(MINI_STATIC, 0, 0, 4, DYNAMIC, "dyn", "dyn", "mini.hip", 14)]))
    many = [(32 + 64 * i, 8 * i, 64 - 8 * i if i < 8 else 0, 8, 0, "_ZN2ns1vE%d" % i if i % 2 else "v%d" % i,
             None, "x.hip", i) for i in range(12)]
    write("descriptor", "many", struct.pack("<I", 0) + desc_blob("k_many", 800, 0, many))
    bad = bytearray(desc_blob("_Z2k1Pii", MINI_STATIC, 0, MINI_VARS))
    bad[-1:] = b"x"                          # last string unterminated
    write("descriptor", "unterminated", dyn + bytes(bad))
    write("descriptor", "old-abi", dyn + desc_blob("_Z2k1Pii", MINI_STATIC, 0, MINI_VARS, abi=1))


def record(off, size=4, write_=True, shadow=0xE1, kind=1, wg=(3, 1, 0), wi=(64, 0, 0), pc=0x7F0000001234,
           state=READY, flags=0, dyn=0, dispatch=0, desc=MINI_DESC, block=MINI_BLOCK, lane=0,
           other=None, hazard=0, repeats=(0, 0, 0)):
    """other: the hazard's second access (pc, work-item, lane, size, flags)."""
    addr = block + off if block else off
    fl = flags | (1 if write_ else 0)
    o_pc, o_wi, o_lane, o_size, o_flags = other or (0, (0, 0, 0), 0, 0, 0)
    r = struct.pack("<IIQQQQQQII3I3IIIQQQ3IIIII3I", state, kind, addr, addr, size, pc, desc, block, fl, shadow,
                    *wg, *wi, lane, dyn, dispatch, 0, o_pc, *o_wi, o_lane, o_size, o_flags, hazard, *repeats)
    assert len(r) == RECORD_SIZE
    return r


def drain_input(options, sym, records, args=(0, 0), dflags=0, abi=ABI, capacity=256, next_=0, dropped=0):
    return (options + b"\0" + sym + b"\0" + struct.pack("<QQI", args[0], args[1], dflags)
            + struct.pack("<4I", abi, capacity, next_, dropped) + b"".join(records))


def drain():
    write("drain", "text-overflow", drain_input(
        b"color=never", b"k1(int*, int)|mini.hip|20|5|/tmp/k.co;inlined_helper|h.h|3|0|/tmp/k.co",
        [record(288), record(-4, shadow=0xE5), record(352 + 36, write_=False, shadow=4)]))
    write("drain", "json-dedup", drain_input(
        b"report_format=json", b"\xff\xfe k1|\"odd\\path\".hip|1||\x01mod",
        [record(288, wi=(64 + i, 0, 0), wg=(i % 2, 0, 0)) for i in range(5)]
        + [record(MINI_STATIC + 44, shadow=0xE3, dyn=40, pc=0x7F0000002000),
           record(0, size=1 << 20, kind=2, pc=0)]))
    write("drain", "bad-header", drain_input(b"", b"", [record(288)], abi=1, capacity=0, dropped=5))
    write("drain", "ring-limit", drain_input(
        b"halt_on_error=0:report_limit=1:dedup=0:color=always:print_legend=0", b"||||/opt/k.co",
        [record(288, flags=2), record(300, pc=0x10), record(2000, state=WRITING),
         record(0x100, kind=3, block=0, desc=0), record(64, dispatch=0x5000), record(72, dispatch=0x7000)],
        args=(0x5000, 0x6000), dflags=1, capacity=8, next_=6, dropped=2))
    # Hazards: a race between waves (error), one within a wave (warning), an
    # uninitialized read, barrier divergence; the writer's folded repeats.
    write("drain", "hazards", drain_input(
        b"halt_on_error=0", b"k1(int*, int)|mini.hip|20|5|/tmp/k.co",
        [record(40, kind=5, hazard=1, write_=False, shadow=0, other=(0x7F0000001200, (65, 0, 0), 1, 4, 1),
                repeats=(3, 7, 2)),
         record(44, kind=5, hazard=2, flags=64, shadow=0, other=(0x7F0000001200, (1, 0, 0), 1, 4, 0)),
         record(300, kind=6, write_=False, shadow=0, repeats=(1, 0, 0)),
         record(0, kind=8, hazard=4, pc=0x7F0000001300, other=(0x7F0000001310, (0, 0, 0), 0, 0, 0))]))
    # A ticket counter about to wrap with a capacity that is not a power of
    # two: the oldest slot is next % capacity, and no slot is read twice
    # (found by the fuzzer in CI: (next + k) % capacity read slot 0 twice).
    write("drain", "ticket-wrap", drain_input(
        b"", b"", [record(288 + 4 * i, wi=(64 + i, 0, 0)) for i in range(3)], capacity=3, next_=0xFFFFFFFF))


def code_object():
    # The smallest object elf_parse accepts: header, one PT_LOAD, a .dynsym
    # (null symbol + one) with its string table, and an empty .rela.dyn.
    strtab = b"\0__ldsan_device_state\0"
    syms = b"\0" * 24 + struct.pack("<IBBHQQ", 1, 0x11, 0, 1, 0x1000, 32)
    rela = struct.pack("<QQq", 0x1000, (1 << 32) | 1, 0)
    ehsize, phsize, shsize = 64, 56, 64
    ph_off = ehsize
    data_off = ph_off + phsize
    str_off = data_off
    sym_off = str_off + len(strtab)
    sym_off = (sym_off + 7) & ~7
    rela_off = sym_off + len(syms)
    sh_off = rela_off + len(rela)
    # sections: null, .dynstr (1), .dynsym (2), .rela.dyn (3)
    shdrs = b"\0" * shsize
    shdrs += struct.pack("<IIQQQQIIQQ", 0, 3, 2, 0, str_off, len(strtab), 0, 0, 1, 0)
    shdrs += struct.pack("<IIQQQQIIQQ", 0, 11, 2, 0, sym_off, len(syms), 1, 1, 8, 24)
    shdrs += struct.pack("<IIQQQQIIQQ", 0, 4, 2, 0, rela_off, len(rela), 2, 0, 8, 24)
    end = sh_off + len(shdrs)
    ident = b"\x7fELF" + bytes([2, 1, 1, 64, 3]) + b"\0" * 7      # ELF64, LSB, OSABI HSA, ABI v5 (3)
    eh = ident + struct.pack("<HHIQQQIHHHHHH", 3, 224, 1, 0, ph_off, sh_off, 0x53f, ehsize, phsize, 1,
                             shsize, 4, 0)
    ph = struct.pack("<IIQQQQQQ", 1, 5, 0, 0, 0, end, 0x2000, 0x1000)
    body = eh + ph
    body = body.ljust(str_off, b"\0") + strtab
    body = body.ljust(sym_off, b"\0") + syms + rela + shdrs
    write("code_object", "minimal-v5", body)
    v3 = bytearray(body)
    v3[8] = 1                                 # ABI version v3, xnack bit
    v3[48:52] = struct.pack("<I", 0x13f)
    write("code_object", "minimal-v3", bytes(v3))
    write("code_object", "truncated", body[:200])


if __name__ == "__main__":
    options()
    descriptor()
    drain()
    code_object()
    if CHECK:
        if stale:
            print("stale fuzz seeds (run test/fuzz/seeds.py and commit them):\n  " + "\n  ".join(stale))
            sys.exit(1)
        print("fuzz seeds are current")
