# ldsan-gdb.py: gdb commands for kernels running on the ldsan CPU emulator
# (`ldsan-cc --emulate -g -O0`). Load it with `ldsan-gdb ./app args` (which
# runs `gdb -x <this file> --args ./app args`) or `source ldsan-gdb.py` in gdb.
#
# Breakpoints work as in host code: `break app.hip:42`, `break my_kernel`.
# When the program stops in a kernel:
#   ldsan-item            which work-item is stopped: work-item, workgroup,
#                         lane and wave, kernel, block and grid sizes
#   ldsan-next-item       continue until a breakpoint stops another work-item
#   ldsan-break FILE:LINE X [Y Z] [BX BY BZ]
#                         break there for that work-item (of that workgroup)
#   p threadIdx.x         the stopped work-item's (blockIdx, blockDim, gridDim too)
#   $threadIdx, $blockIdx, $blockDim, $gridDim
#                         set at every stop in a kernel, {x, y, z}: p $threadIdx[0]
#   $_ldsan_item(x, y, z, bx, by, bz)
#                         true for that work-item: a breakpoint condition
# The emulator runs every work-item as its own fiber under gdb (this script
# sets LDSAN_OPTIONS=emu_fibers=1:emu_threads=1 unless LDSAN_OPTIONS is set):
# each work-item then has its own stack and ids, and one worker thread runs
# the workgroups in order. It also turns LeakSanitizer off (detect_leaks=0 in
# ASAN_OPTIONS), which cannot run under a debugger. Kernel variables, arguments and the stack print as
# usual (`info locals`, `bt`, `p out[i]`).
import re
import struct

import gdb

_TLS = "__ldsan_emu_tls"


def _ids():
    """(thread, block, block_dim, grid_dim) of the stopped work-item, or None."""
    try:
        tls = gdb.parse_and_eval(_TLS)
        item = tls["item"]
        if int(item) == 0:
            return None
        tid = tuple(int(item.dereference()["id"][i]) for i in range(3))
        bid = tuple(int(tls["group_id"][i]) for i in range(3))
        packet = tls["dispatch"]
        if int(packet) == 0:
            return tid, bid, None, None
        u16 = gdb.lookup_type("unsigned short").pointer()
        u32 = gdb.lookup_type("unsigned int").pointer()
        base = packet.cast(gdb.lookup_type("char").pointer())
        # hsa_kernel_dispatch_packet_t: workgroup_size_x/y/z at 4/6/8, grid_size_x/y/z at 12/16/20.
        block = tuple(int((base + 4 + 2 * i).cast(u16).dereference()) for i in range(3))
        grid = tuple(int((base + 12 + 4 * i).cast(u32).dereference()) for i in range(3))
        groups = tuple((grid[i] + block[i] - 1) // block[i] if block[i] else 0 for i in range(3))
        return tid, bid, block, groups
    except gdb.error:
        return None


def _in_loops():
    """The stopped worker runs its workgroup as work-item loops (no fibers)."""
    try:
        return int(gdb.parse_and_eval("ldsan_emu_self->loops")) != 0
    except gdb.error:
        return False


def _set_vars(ids):
    """$threadIdx, $blockIdx, $blockDim, $gridDim: unsigned int[3] each (x, y, z;
    gdb convenience values cannot be structs), void when not in a kernel."""
    values = ids if ids is not None else (None,) * 4
    uint3 = gdb.lookup_type("unsigned int").array(2)
    for name, v in zip(("threadIdx", "blockIdx", "blockDim", "gridDim"), values):
        gdb.set_convenience_variable(name, None if v is None else gdb.Value(struct.pack("<3I", *v), uint3))


def _describe(ids):
    tid, bid, block, groups = ids
    s = "work-item (%d,%d,%d) of workgroup (%d,%d,%d)" % (tid + bid)
    if block:
        linear = tid[0] + block[0] * (tid[1] + block[1] * tid[2])
        try:
            lanes = 1 << int(gdb.parse_and_eval("ldsan_emu_self->wave_shift"))
        except gdb.error:
            lanes = 64
        s += "; lane %d of wave %d (%d-lane waves)" % (linear % lanes, linear // lanes, lanes)
        s += "; block (%d,%d,%d), grid (%d,%d,%d) workgroups" % (block + groups)
    return s


def _on_stop(event):
    _set_vars(None if _in_loops() else _ids())


class LdsanItem(gdb.Command):
    """Show which work-item of which kernel launch is stopped."""

    def __init__(self):
        super().__init__("ldsan-item", gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        ids = _ids()
        if ids is None:
            print("ldsan: not stopped in a kernel (no work-item runs on this thread)")
            return
        if _in_loops():
            print("ldsan: this workgroup (%d,%d,%d) runs as work-item loops, which do not keep the running "
                  "work-item's ids; run with LDSAN_OPTIONS=emu_fibers=1 (ldsan-gdb's default)" % ids[1])
            return
        print("ldsan: " + _describe(ids))


class LdsanNextItem(gdb.Command):
    """Continue until a breakpoint stops a work-item other than this one."""

    def __init__(self):
        super().__init__("ldsan-next-item", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        start = _ids()
        while True:
            gdb.execute("continue", from_tty)
            try:
                gdb.selected_thread()
                now = _ids()
            except gdb.error:
                return  # the program ended
            if not gdb.selected_inferior().pid:
                return
            if now is None or start is None or now[:2] != start[:2]:
                if now is not None:
                    print("ldsan: " + _describe(now))
                return


class LdsanIs(gdb.Function):
    """$_ldsan_item(x, y, z, bx, by, bz): 1 when that work-item is stopped."""

    def __init__(self):
        super().__init__("_ldsan_item")

    def invoke(self, *args):
        ids = _ids()
        if ids is None:
            return 0
        want = [int(a) for a in args]
        have = list(ids[0]) + list(ids[1])
        return int(all(w == h for w, h in zip(want, have)))


class LdsanBreak(gdb.Command):
    """ldsan-break LOCATION X [Y Z] [BX BY BZ]: break at LOCATION for that work-item."""

    def __init__(self):
        super().__init__("ldsan-break", gdb.COMMAND_BREAKPOINTS)

    def invoke(self, arg, from_tty):
        words = gdb.string_to_argv(arg)
        if len(words) < 2:
            raise gdb.GdbError("usage: ldsan-break LOCATION X [Y Z] [BX BY BZ]")
        nums = words[1:] + ["0"] * (7 - len(words))
        gdb.execute("break %s if $_ldsan_item(%s)" % (words[0], ", ".join(nums[:6])), from_tty)


def _env(name):
    """The inferior's value of environment variable name, or None."""
    shown = gdb.execute("show environment " + name, to_string=True).strip()
    prefix = name + " = "
    return shown[len(prefix):] if shown.startswith(prefix) else None


class _CoordinatePrinter:
    """HIP 5.2's threadIdx.x (and blockIdx, blockDim, gridDim) is an empty
    struct whose conversion reads the id: print the stopped work-item's."""

    def __init__(self, which, axis):
        self.which, self.axis = which, axis

    def to_string(self):
        ids = None if _in_loops() else _ids()
        index = {"ThreadIdx": 0, "BlockIdx": 1, "BlockDim": 2, "GridDim": 3}[self.which]
        if ids is None or ids[index] is None:
            return "<not known here: ldsan-item says why>"
        return str(ids[index]["XYZ".index(self.axis)])


_COORD = re.compile(r"^__HIP_Coordinates<__HIP_(ThreadIdx|BlockIdx|BlockDim|GridDim)>::__([XYZ])$")


def _lookup_printer(value):
    name = value.type.strip_typedefs().unqualified().tag
    m = _COORD.match(name or "")
    return _CoordinatePrinter(m.group(1), m.group(2)) if m else None


def _default_options():
    # Fibers on one worker: each work-item has its own stack and ids (see above).
    if _env("LDSAN_OPTIONS") is None:
        gdb.execute("set environment LDSAN_OPTIONS emu_fibers=1:emu_threads=1")
    # LeakSanitizer cannot run under ptrace and would end the program with status 1.
    asan = _env("ASAN_OPTIONS")
    if asan is None:
        gdb.execute("set environment ASAN_OPTIONS detect_leaks=0")
    elif "detect_leaks" not in asan:
        gdb.execute("set environment ASAN_OPTIONS %s:detect_leaks=0" % asan)


LdsanItem()
LdsanNextItem()
LdsanIs()
LdsanBreak()
gdb.events.stop.connect(_on_stop)
gdb.pretty_printers.append(_lookup_printer)
_default_options()
