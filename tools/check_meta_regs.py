#!/usr/bin/env python3
"""check_meta_regs.py: checks that no register a wgmma.sp (HGMMA.SP) reads as its sparsity
metadata is written again while that HGMMA's group is in flight, without a GPU.

    python3 tools/check_meta_regs.py src/kernels/sp24_wgmma.cu [--arch sm_90a] [--nvcc PATH]
                                     [--nvdisasm PATH]
    python3 tools/check_meta_regs.py --sass FILE   (the output of nvdisasm -c, already made)

The tensor cores read the metadata register while the group is in flight, but ptxas (CUDA 13.0)
treats it as read at issue, and once put the next stage's word there (wrong products on an
H100). sp24_wgmma.cu keeps one group in flight and holds the words live until their group
retires (hold_words); this reads the SASS to confirm it.

Reads the file's SASS (sass_build.py: nvcc -O3 to a cubin, nvdisasm on PATH, in CUDA's bin,
or where `pip install nvidia-cuda-nvdisasm` put it) and, in every function with HGMMA.SP,
tracks wgmma groups along every path: each branch is taken both ways, and a call enters its
callee. An HGMMA marked gsb0 closes a group; `WARPGROUP.DEPBAR.LE gsb0, N` retires all but the
newest N. A write to a register an HGMMA.SP of a group in flight reads, on any path to the
write, is a violation; a write counts every register it covers (64-bit results, .128, LDSM,
HMMA and HGMMA accumulators). A path that never runs counts too, so the kernel makes the same
waits on every path (a unit's first stage waits although no group is left to retire). It also
reports ptxas's message that it serialized a kernel's wgmma instructions (C7513, "Potential
Performance Loss"), which costs their overlap. Exit status 1 on a violation, a serialization,
or when no HGMMA.SP was found; 77 when nvdisasm is not found.
"""
import argparse
import re
import sys

import sass_build

INSTR = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][\w.]*)\s*([^;]*);")
FUNC = re.compile(r"^\.text\.(\S+):$")
LABEL = re.compile(r"^(\.L_x_\d+|\$__internal_\w+\$\w+):$")  # a branch's or a call's target
TARGET = re.compile(r"`\((\.L_x_\d+|\$__internal_\w+\$\w+)\)")
# whose first register operand is read, not written
NO_DEST = ("ST", "RED", "BRA", "BAR", "WARPSYNC", "CALL", "BSSY", "BSYNC", "RET", "EXIT")
# with a target label: a branch, a call, or a collective section's exit (WARPSYNC.COLLECTIVE)
FLOW = ("BRA", "JMP", "CALL", "WARPSYNC")
MAX_AGE = 16  # ages stop here (wait_group keeps at most 7 groups), so the ages stay finite


class Instr:
    def __init__(self, addr, guarded, op, operands):
        self.addr, self.guarded, self.op, self.operands = addr, guarded, op, operands.strip()
        m = TARGET.search(operands) if op.startswith(FLOW) else None
        self.target = m.group(1) if m else None

    def text(self):
        return "%04x %s %s" % (self.addr, self.op, self.operands)


def functions(sass):
    """[(name, [Instr], {label: index})] per function of nvdisasm -c output."""
    found, body, labels = [], None, None
    for line in sass.splitlines():
        m = FUNC.match(line.strip())
        if m:
            body, labels = [], {}
            found.append((m.group(1), body, labels))
            continue
        if body is None:
            continue
        m = LABEL.match(line.strip())
        if m:
            labels[m.group(1)] = len(body)
            continue
        m = INSTR.search(line)
        if m:
            body.append(Instr(int(m.group(1), 16), bool(m.group(2)), m.group(3), m.group(4)))
    return found


def width(op):
    """How many registers from the first an instruction writes: an HGMMA's accumulators
    (64 x N: N / 2 of F32, N / 4 of F16), an HMMA's (four of F32, two of F16), LDSM's
    matrices, four for .128, two for any 64-bit type (also where only the source is 64-bit:
    more, not fewer), .WIDE, double-precision arithmetic and CS2R, else one."""
    m = re.match(r"HGMMA(?:\.SP)?\.64x(\d+)x\d+\.(\w+)", op)
    if m:
        return int(m.group(1)) // (4 if m.group(2) == "F16" else 2)
    m = re.match(r"[HI]MMA\.\d+\.(\w+)", op)
    if m:
        return 2 if m.group(1) == "F16" else 4
    m = re.match(r"LDSM\..*\.([24])$", op)
    if m:
        return int(m.group(1))
    if ".128" in op:
        return 4
    if (re.search(r"\.(?:[USF]?64|WIDE)\b", op) or op.startswith(("DADD", "DMUL", "DFMA", "DMNMX"))
            or (op.startswith("CS2R") and ".32" not in op)):
        return 2
    return 1


def written(op, operands):
    """The R registers an instruction writes: width(op) from its first operand, or from its
    second after a predicate (SHFL.IDX PT, R63, ...)."""
    if op.startswith(NO_DEST):
        return []
    m = re.match(r"(?:!?U?P(?:\d+|T)\s*,\s*)?R(\d+)\b", operands)
    if not m:
        return []
    return ["R%d" % (int(m.group(1)) + i) for i in range(width(op))]


def metadata(operands):
    """The metadata register of an HGMMA.SP: the register before its selector."""
    ops = [o.strip() for o in operands.split(",")]
    for i, o in enumerate(ops):
        if re.fullmatch(r"0x[0-9a-f]+", o) and i > 0 and re.fullmatch(r"R\d+", ops[i - 1]):
            return ops[i - 1]
    sys.exit("check_meta_regs: no metadata register in HGMMA.SP " + operands)


def merge(a, b):
    """The reader of two paths that meet: each register in flight on either, with its
    newest age (the group that retires last)."""
    return {r: min(a.get(r, MAX_AGE), b.get(r, MAX_AGE)) for r in set(a) | set(b)}


def after(ins, reader):
    """reader after ins. reader maps each metadata register some group in flight reads to the
    age of the newest such group (0: the group being issued, k: the k-th newest committed
    one); the newest is the one that retires last. A guarded HGMMA may or may not run: both.
    A guarded wait may not run: none."""
    if ins.op.startswith("HGMMA"):
        ran = dict(reader)
        if ins.op.startswith("HGMMA.SP"):
            ran[metadata(ins.operands)] = 0
        if "gsb0" in ins.operands:  # the group is committed
            ran = {r: min(age + 1, MAX_AGE) for r, age in ran.items()}
        return merge(reader, ran) if ins.guarded else ran
    if ins.op.startswith("WARPGROUP.DEPBAR") and not ins.guarded:  # all but the newest N retire
        keep = int(ins.operands.split(",")[-1], 0)
        return {r: age for r, age in reader.items() if age <= keep}
    return reader


def conditional(ins):
    """Whether a branch, exit or return may fall through: guarded, or with a condition operand
    (BRA.DIV UR4, ...)."""
    return ins.guarded or "," in ins.operands


def successors(body, labels, i, returns):
    """The instructions that may run after body[i]: a branch's target, a call's callee (the
    callee's RET goes back after every call of it: returns), a collective section's exit
    (WARPSYNC.COLLECTIVE R4, `(.L_x_3)) and its body, the next one if it may fall through."""
    ins, nxt = body[i], [i + 1] if i + 1 < len(body) else []
    if ins.op.startswith("WARPSYNC") and ins.target is None:  # WARPSYNC.ALL, WARPSYNC R4
        return nxt
    if ins.op.startswith(FLOW):
        if ins.target not in labels:
            sys.exit("check_meta_regs: cannot follow " + ins.text())
        falls = conditional(ins) or ins.op.startswith(("CALL", "WARPSYNC"))
        return [labels[ins.target]] + (nxt if falls else [])
    if ins.op.startswith(("BRX", "JMX")):
        sys.exit("check_meta_regs: cannot follow " + ins.text())
    if ins.op.startswith("RET"):
        return returns + (nxt if conditional(ins) else [])
    if ins.op.startswith("EXIT"):
        return nxt if conditional(ins) else []
    return nxt


def check(body, labels):
    """Violations on every path through the function: each instruction's reader (after()) is
    the merge over all paths that reach it (a register in flight on any of them, with its
    newest age), found by iterating to a fixed point. Every branch is taken both ways, so a
    path that never runs counts as one that does."""
    returns = [i + 1 for i, ins in enumerate(body) if ins.op.startswith("CALL")]
    bad, reaching, work = set(), {0: {}}, [0]
    while work:
        i = work.pop()
        ins, reader = body[i], reaching[i]
        for r in written(ins.op, ins.operands):
            if r in reader:
                bad.add("%s (%s's group is in flight)" % (ins.text(), r))
        out = after(ins, reader)
        for j in successors(body, labels, i, returns):
            old = reaching.get(j)
            merged = dict(out) if old is None else merge(old, out)
            if merged != old:
                reaching[j] = merged
                work.append(j)
    return sorted(bad)


def serialized_kernels(messages):
    """The kernels whose wgmma ptxas serialized, from nvcc's messages."""
    return sorted(set(re.findall(r"Potential Performance Loss: wgmma.*function '(\S+)'",
                                 messages)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", nargs="?")
    ap.add_argument("--sass", help="read this nvdisasm -c output instead of compiling")
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("--nvcc", default="nvcc")
    ap.add_argument("--nvdisasm", default=None)
    args = ap.parse_args()
    if args.sass:
        sass, serialized = open(args.sass).read(), []
    elif args.source:
        nvdisasm = sass_build.find_nvdisasm(args.nvdisasm)
        if nvdisasm is None:
            print("check_meta_regs: no nvdisasm (pip install nvidia-cuda-nvdisasm): not checked")
            return 77
        sass, messages = sass_build.cubin_sass(args.source, args.arch, nvdisasm, args.nvcc)
        serialized = serialized_kernels(messages)
    else:
        ap.error("a source file or --sass")
    for name in serialized:
        print("serialized by ptxas: %s" % name)
    checked = failed = 0
    for name, body, labels in functions(sass):
        if not any(ins.op.startswith("HGMMA.SP") for ins in body):
            continue
        checked += 1
        for v in check(body, labels):
            print("%s: %s" % (name, v))
            failed += 1
    print("check_meta_regs: %d function(s) with HGMMA.SP, %d violation(s), %d serialized"
          % (checked, failed, len(serialized)))
    return 1 if failed or serialized or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
