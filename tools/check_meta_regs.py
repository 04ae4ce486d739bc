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
write, is a violation. A path that never runs counts too, so the kernel makes the same waits
on every path (a unit's first stage waits although no group is left to retire). It also
reports ptxas's message that it serialized a kernel's wgmma instructions (C7513, "Potential
Performance Loss"), which costs their overlap. Exit status 1 on a violation, a serialization,
or when no HGMMA.SP was found; 77 when nvdisasm is not found.
"""
import argparse
import re
import sys

import sass_build

INSTR = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)\s*([^;]*);")
FUNC = re.compile(r"^\.text\.(\S+):$")
LABEL = re.compile(r"^(\.L_x_\d+|\$__internal_\w+\$\w+):$")  # a branch's or a call's target
TARGET = re.compile(r"`\((\.L_x_\d+|\$__internal_\w+\$\w+)\)")
# whose first register operand is read, not written
NO_DEST = ("ST", "RED", "BRA", "BAR", "WARPSYNC", "CALL", "HGMMA", "BSSY", "BSYNC", "RET",
           "EXIT")
MAX_AGE = 16  # groups in flight tracked; more is a violation of its own


class Instr:
    def __init__(self, addr, guarded, op, operands):
        self.addr, self.guarded, self.op, self.operands = addr, guarded, op, operands.strip()
        m = TARGET.search(operands) if op.startswith(("BRA", "JMP", "CALL")) else None
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


def written(op, operands):
    """The R registers an instruction writes: its first operand, or its second after a
    predicate (SHFL.IDX PT, R63, ...); two for .64, .WIDE and CS2R, four for .128."""
    if op.startswith(NO_DEST):
        return []
    m = re.match(r"(?:!?U?P(?:\d+|T)\s*,\s*)?R(\d+)\b", operands)
    if not m:
        return []
    wide = ".64" in op or ".WIDE" in op or (op.startswith("CS2R") and ".32" not in op)
    width = 4 if ".128" in op else 2 if wide else 1
    return ["R%d" % (int(m.group(1)) + i) for i in range(width)]


def metadata(operands):
    """The metadata register of an HGMMA.SP: the register before its selector."""
    ops = [o.strip() for o in operands.split(",")]
    for i, o in enumerate(ops):
        if re.fullmatch(r"0x[0-9a-f]+", o) and i > 0 and re.fullmatch(r"R\d+", ops[i - 1]):
            return ops[i - 1]
    sys.exit("check_meta_regs: no metadata register in HGMMA.SP " + operands)


def after(ins, reader, bad):
    """reader after ins. reader maps each metadata register some group in flight reads to the
    age of the newest such group (0: the group being issued, k: the k-th newest committed
    one); the newest is the one that retires last."""
    if ins.op.startswith("HGMMA"):
        if ins.op.startswith("HGMMA.SP"):
            reader = dict(reader)
            reader[metadata(ins.operands)] = 0
        if "gsb0" in ins.operands:  # the group is committed
            if any(age >= MAX_AGE for age in reader.values()):
                bad.add("%s: more than %d wgmma groups in flight" % (ins.text(), MAX_AGE))
            reader = {r: age + 1 for r, age in reader.items() if age < MAX_AGE}
    elif ins.op.startswith("WARPGROUP.DEPBAR") and not ins.guarded:  # all but the newest N retire
        keep = int(ins.operands.split(",")[-1], 0)
        reader = {r: age for r, age in reader.items() if age <= keep}
    return reader


def conditional(ins):
    """Whether a branch, exit or return may fall through: guarded, or with a condition operand
    (BRA.DIV UR4, ...)."""
    return ins.guarded or "," in ins.operands


def successors(body, labels, i, returns):
    """The instructions that may run after body[i]: a branch's target, a call's callee (the
    callee's RET goes back after every call of it: returns), the next one if it may fall
    through."""
    ins, nxt = body[i], [i + 1] if i + 1 < len(body) else []
    if ins.op.startswith(("BRA", "JMP", "CALL")):
        if ins.target not in labels:
            sys.exit("check_meta_regs: cannot follow " + ins.text())
        return [labels[ins.target]] + (nxt if conditional(ins) or ins.op.startswith("CALL")
                                       else [])
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
        out = after(ins, reader, bad)
        for j in successors(body, labels, i, returns):
            old = reaching.get(j)
            merged = dict(out) if old is None else {
                r: min(old.get(r, MAX_AGE), out.get(r, MAX_AGE)) for r in set(old) | set(out)}
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
