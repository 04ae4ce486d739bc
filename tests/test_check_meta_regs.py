#!/usr/bin/env python3
"""test_check_meta_regs.py: tools/check_meta_regs.py on hand-written SASS, without a GPU.
A loop that keeps one wgmma group in flight and loads the next stage's metadata word into
the register the group in flight reads must fail; the same loop with the word in another
register, or with every group retired before the load, must pass; so must code straight
through that writes the register after the group retired. A loop left halfway through
(an odd stage count) with a group in flight must fail if the code after it writes that
group's word before the last wait, and pass if it writes it after. A forward branch that
skips a wait on some path must fail (every branch is taken both ways), and so must a called
subroutine that writes the word in flight, while one that writes another register passes. A
64-bit write over a word in flight must fail, and so must SASS with no HGMMA.SP at all. Usage:
test_check_meta_regs.py PATH/TO/check_meta_regs.py"""
import os
import subprocess
import sys
import tempfile

def sass(lines):
    """nvdisasm -c text of one function with the given instructions (labels as '.L_x_N:')."""
    out, addr = [".text._Z6kernelv:"], 0
    for line in lines:
        if line.endswith(":"):
            out.append(line)
            continue
        out.append("        /*%04x*/                   %s ;" % (addr, line))
        addr += 16
    return "\n".join(out) + "\n"


def loop(load_into, depbar):
    """A stage loop: load a word, two HGMMA.SP reading it (one group), then retire groups."""
    return sass(["MOV R88, 0x44444444", "MOV R89, 0x44444444", ".L_x_1:",
                 "LDS %s, [R12+0xc000]" % load_into,
                 "WARPGROUP.ARRIVE",
                 "HGMMA.SP.64x128x32.F32 R24, gdesc[UR16].tnspB, R24, %s, 0x0" % load_into,
                 "HGMMA.SP.64x128x32.F32 R24, gdesc[UR16].tnspB, R24, %s, 0x1, gsb0" % load_into,
                 "WARPGROUP.DEPBAR.LE gsb0, %s" % depbar,
                 "IADD3 R12, R12, 0x100, RZ",
                 "ISETP.GE.AND P0, PT, R12, R13, PT",
                 "@!P0 BRA `(.L_x_1)",
                 "WARPGROUP.DEPBAR.LE gsb0, 0x0", "EXIT"])


def two_sets():
    """One group in flight, the stages alternating between R88 and R89."""
    return sass([".L_x_1:",
                 "LDS R88, [R12+0xc000]", "WARPGROUP.ARRIVE",
                 "HGMMA.SP.64x128x32.F32 R24, gdesc[UR16], R24, R88, 0x1, gsb0",
                 "WARPGROUP.DEPBAR.LE gsb0, 0x1",
                 "LDS R89, [R12+0xc080]", "WARPGROUP.ARRIVE",
                 "HGMMA.SP.64x128x32.F32 R24, gdesc[UR16], R24, R89, 0x1, gsb0",
                 "WARPGROUP.DEPBAR.LE gsb0, 0x1",
                 "@!P0 BRA `(.L_x_1)", "WARPGROUP.DEPBAR.LE gsb0, 0x0", "EXIT"])


def loop_exit(write_before_wait):
    """Two stages a pass, the loop left after the first (an odd stage count): its group is
    in flight at the exit, where R88 is written before or after the last wait."""
    return sass([".L_x_1:",
                 "LDS R88, [R12+0xc000]", "WARPGROUP.ARRIVE",
                 "HGMMA.SP.64x128x32.F32 R24, gdesc[UR16], R24, R88, 0x1, gsb0",
                 "WARPGROUP.DEPBAR.LE gsb0, 0x1",
                 "@P1 BRA `(.L_x_2)",
                 "LDS R89, [R12+0xc080]", "WARPGROUP.ARRIVE",
                 "HGMMA.SP.64x128x32.F32 R24, gdesc[UR16], R24, R89, 0x1, gsb0",
                 "WARPGROUP.DEPBAR.LE gsb0, 0x1",
                 "@!P0 BRA `(.L_x_1)",
                 ".L_x_2:"] + (["MOV R88, RZ"] if write_before_wait else []) +
                ["WARPGROUP.DEPBAR.LE gsb0, 0x0", "MOV R88, RZ", "EXIT"])


def skipped_wait():
    """Two sets of words, but a forward branch skips stage R88's wait (as a wait made only
    after a unit's first stage would): on that path R89's group of the pass before is still
    in flight when R89 is loaded."""
    return sass([".L_x_1:",
                 "LDS R88, [R12+0xc000]", "WARPGROUP.ARRIVE",
                 "HGMMA.SP.64x128x32.F32 R24, gdesc[UR16], R24, R88, 0x1, gsb0",
                 "@P2 BRA `(.L_x_2)",
                 "WARPGROUP.DEPBAR.LE gsb0, 0x1",
                 ".L_x_2:",
                 "LDS R89, [R12+0xc080]", "WARPGROUP.ARRIVE",
                 "HGMMA.SP.64x128x32.F32 R24, gdesc[UR16], R24, R89, 0x1, gsb0",
                 "WARPGROUP.DEPBAR.LE gsb0, 0x1",
                 "@!P0 BRA `(.L_x_1)", "WARPGROUP.DEPBAR.LE gsb0, 0x0", "EXIT"])


def call(callee_writes):
    """A subroutine called while R88's group is in flight, which writes callee_writes."""
    return sass(["LDS R88, [R12]", "WARPGROUP.ARRIVE",
                 "HGMMA.SP.64x64x32.F32 R24, gdesc[UR16], RZ, !UPT, R88, 0x0, gsb0",
                 "CALL.REL.NOINC `(.L_x_9)", "WARPGROUP.DEPBAR.LE gsb0, 0x0", "EXIT",
                 ".L_x_9:", "MOV %s, RZ" % callee_writes, "RET.REL.NODEC R20 `(_Z6kernelv)"])


def straight(retire_first):
    """No loop: an HGMMA.SP, then its word's register written, retired before or not."""
    body = ["LDS R90, [R12]", "WARPGROUP.ARRIVE",
            "HGMMA.SP.64x64x32.F32 R24, gdesc[UR16], RZ, !UPT, R90, 0x0, gsb0"]
    if retire_first:
        body.append("WARPGROUP.DEPBAR.LE gsb0, 0x0")
    body += ["IMAD.WIDE R90, R2, 0x4, R4", "WARPGROUP.DEPBAR.LE gsb0, 0x0", "EXIT"]
    return sass(body)


def run(tool, text):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "k.sass")
        with open(path, "w") as f:
            f.write(text)
        r = subprocess.run([sys.executable, tool, "--sass", path], capture_output=True,
                           text=True)
    return r.returncode, r.stdout


def main():
    tool = sys.argv[1]
    cases = [(loop("R88", "0x1"), lambda rc, out: rc == 1 and "1 violation" in out and "R88" in out,
              "one group in flight, the next word loaded into its register"),
             (loop("R88", "0x0"), lambda rc, out: rc == 0 and "0 violation" in out,
              "every group retired before the load"),
             (two_sets(), lambda rc, out: rc == 0 and "0 violation" in out,
              "two sets of words, one group in flight"),
             (loop_exit(True), lambda rc, out: rc == 1 and "1 violation" in out and "R88" in out,
              "the loop left with a group in flight, its word written before the wait"),
             (loop_exit(False), lambda rc, out: rc == 0 and "0 violation" in out,
              "the loop left with a group in flight, its word written after the wait"),
             (skipped_wait(), lambda rc, out: rc == 1 and "1 violation" in out and "R89" in out,
              "a forward branch that skips a wait"),
             (call("R88"), lambda rc, out: rc == 1 and "1 violation" in out and "R88" in out,
              "a called subroutine that writes the word in flight"),
             (call("R90"), lambda rc, out: rc == 0 and "0 violation" in out,
              "a called subroutine that writes another register"),
             (straight(False), lambda rc, out: rc == 1 and "R90" in out,
              "a wide write over a word in flight"),
             (straight(True), lambda rc, out: rc == 0, "a write after the group retired"),
             (sass(["MOV R1, R2", "EXIT"]), lambda rc, out: rc == 1 and "0 function" in out,
              "no HGMMA.SP found is a failure")]
    failed = 0
    for text, ok, what in cases:
        rc, out = run(tool, text)
        if not ok(rc, out):
            failed += 1
            print(f"FAIL: {what}: exit {rc}, {out!r}", file=sys.stderr)
    print(f"{len(cases) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
