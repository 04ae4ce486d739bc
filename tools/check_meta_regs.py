#!/usr/bin/env python3
"""check_meta_regs.py: checks that no register a wgmma.sp (HGMMA.SP) reads as its sparsity
metadata is written again while that HGMMA's group is in flight, without a GPU.

    python3 tools/check_meta_regs.py src/kernels/sp24_wgmma.cu [--arch sm_90a] [--nvdisasm PATH]
    python3 tools/check_meta_regs.py --sass FILE   (the output of nvdisasm -c, already made)

The tensor cores read the metadata register while the group is in flight, but ptxas (CUDA 13.0)
treats it as read at issue, and once put the next stage's word there (wrong products on an
H100). sp24_wgmma.cu keeps one group in flight and holds the words live until their group
retires (wgmma_wait_one_keeping); this reads the SASS to confirm it.

Compiles the file to a cubin (nvcc -O3, the library's include paths), disassembles it with
nvdisasm (`pip install nvidia-cuda-nvdisasm` puts one under site-packages/nvidia/cu13/bin/)
and, in every function with HGMMA.SP, walks each loop twice (the code straight through, and
each loop, closed by a backward branch, again from its top) tracking groups: an HGMMA marked
gsb0 closes a group, `WARPGROUP.DEPBAR.LE gsb0, N` retires all but the last N. A write to a
register whose last HGMMA.SP reader's group has not retired is a violation. It also reports
ptxas's warning that it serialized the wgmma instructions (C7513), which costs their overlap.
Exit status 1 on a violation, a serialization, or when no HGMMA.SP was found.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

INSTR = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)\s*([^;]*);")
FUNC = re.compile(r"^\.text\.(\S+):$")
LABEL = re.compile(r"^(\.L_x_\d+):$")
NO_DEST = ("ST", "RED", "ATOM", "BRA", "SYNCS", "WARPGROUP", "BAR", "EXIT", "NOP", "RET",
           "CALL", "UTMA", "UBLKCP", "MEMBAR", "FENCE", "DEPBAR", "WARPSYNC", "CCTL", "ERRBAR",
           "BSSY", "BSYNC", "YIELD", "ACQBULK", "PREEXIT", "UCGABAR", "ELECT", "HGMMA")


def functions(sass):
    """[(name, [(op, operands, target label or None)], {label: index})] per function."""
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
            target = re.search(r"`\((\.L_x_\d+)\)", m.group(4)) if m.group(3) == "BRA" else None
            body.append((m.group(3), m.group(4), target.group(1) if target else None))
    return found


def written(op, operands):
    """The R registers an instruction writes."""
    if op.startswith(NO_DEST):
        return []
    m = re.match(r"\s*R(\d+)\b", operands)
    if not m:
        return []
    width = 4 if ".128" in op else 2 if (".64" in op or ".WIDE" in op) else 1
    return ["R%d" % (int(m.group(1)) + i) for i in range(width)]


def metadata(operands):
    """The metadata register of an HGMMA.SP: the register before its selector."""
    ops = [o.strip() for o in operands.split(",")]
    for i, o in enumerate(ops):
        if re.fullmatch(r"0x[0-9a-f]+", o) and i > 0 and re.fullmatch(r"R\d+", ops[i - 1]):
            return ops[i - 1]
    return None


class Groups:
    """The wgmma groups of one walk: which metadata registers are still being read."""

    def __init__(self):
        self.open, self.retired, self.reader = 0, 0, {}

    def run(self, op, operands):
        if op.startswith("HGMMA.SP"):
            self.reader[metadata(operands)] = self.open
            if "gsb0" in operands:
                self.open += 1
            return []
        if op.startswith("WARPGROUP.DEPBAR"):
            self.retired = max(self.retired, self.open - int(operands.split(",")[-1], 0))
            return []
        return [r for r in written(op, operands) if self.reader.get(r, -1) >= self.retired]


def check(body, labels):
    """Violations: the code straight through, then each loop walked twice from its top."""
    bad = set()
    walks = [body]
    for i, (op, _, target) in enumerate(body):
        if target in labels and labels[target] <= i:
            walks.append(body[labels[target]:i + 1] * 2)
    for walk in walks:
        if not any(op.startswith("HGMMA.SP") for op, _, _ in walk):
            continue
        groups = Groups()
        for op, operands, _ in walk:
            for r in groups.run(op, operands):
                bad.add("%s %s (%s's group is in flight)" % (op, operands.strip(), r))
    return sorted(bad)


def compile_sass(source, arch, nvdisasm):
    """(nvdisasm -c of source's cubin, ptxas's kernels it serialized the wgmma of)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as tmp:
        cubin = os.path.join(tmp, "k.cubin")
        build = subprocess.run(["nvcc", "-O3", "-std=c++17", "-arch=" + arch, "-cubin",
                                "-I" + os.path.join(root, "include"),
                                "-I" + os.path.join(root, "src"), source, "-o", cubin],
                               capture_output=True, text=True)
        if build.returncode != 0:
            sys.exit(build.stderr)
        sass = subprocess.run([nvdisasm, "-c", cubin], capture_output=True, text=True,
                              check=True).stdout
    return sass, sorted(set(re.findall(r"C7513\).*function '(\S+)'", build.stderr)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", nargs="?")
    ap.add_argument("--sass", help="read this nvdisasm -c output instead of compiling")
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("--nvdisasm", default="nvdisasm")
    args = ap.parse_args()
    if args.sass:
        sass, serialized = open(args.sass).read(), []
    elif args.source:
        sass, serialized = compile_sass(args.source, args.arch, args.nvdisasm)
    else:
        ap.error("a source file or --sass")
    for name in serialized:
        print("serialized by ptxas: %s" % name)
    checked = failed = 0
    for name, body, labels in functions(sass):
        if not any(op.startswith("HGMMA.SP") for op, _, _ in body):
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
