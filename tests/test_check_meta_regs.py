#!/usr/bin/env python3
"""test_check_meta_regs.py: tools/check_meta_regs.py on hand-written SASS, without a GPU.
Each case is a few instructions around HGMMA.SP groups, with the number of violations the
tool must report: a word loaded into the register of a group in flight (in a loop, at a loop's
exit, on a path where a forward branch skipped a wait, where two paths meet with the group at
different ages, after a guarded HGMMA that may not have run, in or after a called subroutine,
behind a branch with a condition operand, a guarded exit or a collective section) must fail;
the same with the groups retired first, with two sets of words, past an unconditional branch
or exit, or in another register must pass. Writes of several registers (.WIDE, a 64-bit
conversion, LDSM, HMMA and HGMMA accumulators) must fail where a later register of the write
is the word in flight, and pass where none is. SASS with no HGMMA.SP at all must fail.
Mutants of the tool (min merge made max, no fall-through, no return edges, one register a
write, ...) each fail at least one case. Usage: test_check_meta_regs.py
PATH/TO/check_meta_regs.py"""
import os
import re
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


def sp(reg, commit=True, selector=0):
    """An HGMMA.SP reading its metadata word from reg, closing its group or not."""
    return "HGMMA.SP.64x128x32.F32 R24, gdesc[UR16], R24, %s, 0x%d%s" % (
        reg, selector, ", gsb0" if commit else "")


def loop(load_into, depbar):
    """A stage loop: load a word, two HGMMA.SP reading it (one group), then retire groups."""
    return sass(["MOV R88, 0x44444444", "MOV R89, 0x44444444", ".L_x_1:",
                 "LDS %s, [R12+0xc000]" % load_into,
                 "WARPGROUP.ARRIVE",
                 sp(load_into, commit=False), sp(load_into, selector=1),
                 "WARPGROUP.DEPBAR.LE gsb0, %s" % depbar,
                 "IADD3 R12, R12, 0x100, RZ",
                 "ISETP.GE.AND P0, PT, R12, R13, PT",
                 "@!P0 BRA `(.L_x_1)",
                 "WARPGROUP.DEPBAR.LE gsb0, 0x0", "EXIT"])


def two_sets():
    """One group in flight, the stages alternating between R88 and R89."""
    return sass([".L_x_1:",
                 "LDS R88, [R12+0xc000]", "WARPGROUP.ARRIVE",
                 sp("R88"),
                 "WARPGROUP.DEPBAR.LE gsb0, 0x1",
                 "LDS R89, [R12+0xc080]", "WARPGROUP.ARRIVE",
                 sp("R89"),
                 "WARPGROUP.DEPBAR.LE gsb0, 0x1",
                 "@!P0 BRA `(.L_x_1)", "WARPGROUP.DEPBAR.LE gsb0, 0x0", "EXIT"])


def loop_exit(write_before_wait):
    """Two stages a pass, the loop left after the first (an odd stage count): its group is
    in flight at the exit, where R88 is written before or after the last wait."""
    return sass([".L_x_1:",
                 "LDS R88, [R12+0xc000]", "WARPGROUP.ARRIVE",
                 sp("R88"),
                 "WARPGROUP.DEPBAR.LE gsb0, 0x1",
                 "@P1 BRA `(.L_x_2)",
                 "LDS R89, [R12+0xc080]", "WARPGROUP.ARRIVE",
                 sp("R89"),
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
                 sp("R88"),
                 "@P2 BRA `(.L_x_2)",
                 "WARPGROUP.DEPBAR.LE gsb0, 0x1",
                 ".L_x_2:",
                 "LDS R89, [R12+0xc080]", "WARPGROUP.ARRIVE",
                 sp("R89"),
                 "WARPGROUP.DEPBAR.LE gsb0, 0x1",
                 "@!P0 BRA `(.L_x_1)", "WARPGROUP.DEPBAR.LE gsb0, 0x0", "EXIT"])


def call(callee):
    """A subroutine (at a label of ptxas's own subroutines) called while R88's group is in
    flight, with the instructions callee, then the caller's write to R88 and its last wait."""
    sub = "$__internal_0_$__cuda_sm20_div_s64"
    return sass(["LDS R88, [R12]", "WARPGROUP.ARRIVE", sp("R88"),
                 "CALL.REL.NOINC `(%s)" % sub, "WARPGROUP.DEPBAR.LE gsb0, 0x0", "EXIT",
                 sub + ":"] + callee + ["RET.REL.NODEC R20 `(_Z6kernelv)"])


def straight(retire_first, *write):
    """No loop: an HGMMA.SP reading R90, then the instructions write (by default a 64-bit
    write from R89), the group retired before them or not."""
    body = ["LDS R90, [R12]", "WARPGROUP.ARRIVE", sp("R90")]
    if retire_first:
        body.append("WARPGROUP.DEPBAR.LE gsb0, 0x0")
    body += list(write or ["IMAD.WIDE R89, R2, 0x4, R4"])
    body += ["WARPGROUP.DEPBAR.LE gsb0, 0x0", "EXIT"]
    return sass(body)


def merged_ages():
    """R88's group is the newest on one path, and one group older on the other; after a wait
    that keeps one group, R88 is still read on the first path."""
    return sass(["LDS R88, [R12]", "WARPGROUP.ARRIVE", sp("R88"), "@P0 BRA `(.L_x_2)",
                 "WARPGROUP.ARRIVE", "HGMMA.64x64x16.F32 R24, gdesc[UR16], R24, gsb0",
                 ".L_x_2:", "WARPGROUP.DEPBAR.LE gsb0, 0x1", "MOV R88, RZ",
                 "WARPGROUP.DEPBAR.LE gsb0, 0x0", "EXIT"])


def flow(instr, reached_by_jump):
    """R88's group in flight at a control-flow instruction (instr, to .L_x_2) after which R88
    is written: where it falls through to the write (reached_by_jump False), or where the
    write is reached only through its target."""
    head = ["LDS R88, [R12]", "WARPGROUP.ARRIVE", sp("R88"), instr]
    if reached_by_jump:
        return sass(head + ["WARPGROUP.DEPBAR.LE gsb0, 0x0", "EXIT", ".L_x_2:", "MOV R88, RZ",
                            "WARPGROUP.DEPBAR.LE gsb0, 0x0", "EXIT"])
    return sass(head + ["MOV R88, RZ", ".L_x_2:", "WARPGROUP.DEPBAR.LE gsb0, 0x0", "EXIT"])


def run(tool, text):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "k.sass")
        with open(path, "w") as f:
            f.write(text)
        r = subprocess.run([sys.executable, tool, "--sass", path], capture_output=True,
                           text=True)
    return r.returncode, r.stdout


def violations(rc, out):
    """The tool's count of violations, None where it did not report one."""
    m = re.search(r"(\d+) violation", out)
    return int(m.group(1)) if m else None


def main():
    tool = sys.argv[1]
    # (SASS, violations expected (0: passes), the register a violation names, what it is)
    cases = [
        (loop("R88", "0x1"), 1, "R88", "one group in flight, the next word loaded into its own"),
        (loop("R88", "0x0"), 0, None, "every group retired before the load"),
        (two_sets(), 0, None, "two sets of words, one group in flight"),
        (loop_exit(True), 1, "R88", "a loop left with a group in flight, its word written first"),
        (loop_exit(False), 0, None, "a loop left with a group in flight, its word written after"),
        (skipped_wait(), 1, "R89", "a forward branch that skips a wait"),
        (merged_ages(), 1, "R88", "paths that meet with the word's group at different ages"),
        (flow("BRA.DIV UR9, `(.L_x_2)", False), 1, "R88",
         "a branch with a condition operand falls through"),
        (flow("@P0 EXIT", False), 1, "R88", "a guarded exit falls through"),
        (flow("BRA `(.L_x_2)", False), 0, None, "an unconditional branch does not fall through"),
        (flow("EXIT", False), 0, None, "nothing after an unguarded exit runs"),
        (flow("WARPSYNC.COLLECTIVE R4, `(.L_x_2)", True), 1, "R88",
         "a collective section's exit is followed"),
        (call(["MOV R88, RZ"]), 1, "R88", "a called subroutine that writes the word in flight"),
        (call(["MOV R90, RZ"]), 0, None, "a called subroutine that writes another register"),
        (call(["WARPGROUP.DEPBAR.LE gsb0, 0x0", "LDS R88, [R12]"]), 0, None,
         "a called subroutine that waits before it loads the word"),
        (sass(["CALL.REL.NOINC `(.L_x_9)", "MOV R88, RZ", "WARPGROUP.DEPBAR.LE gsb0, 0x0", "EXIT",
               ".L_x_9:", "LDS R88, [R12]", "WARPGROUP.ARRIVE", sp("R88"),
               "RET.REL.NODEC R20 `(_Z6kernelv)"]), 1, "R88",
         "a group issued in a subroutine is in flight after its return"),
        (sass(["LDS R88, [R12]", "WARPGROUP.ARRIVE", sp("R88"), "@P0 " + sp("R90"),
               "WARPGROUP.DEPBAR.LE gsb0, 0x1", "MOV R88, RZ", "WARPGROUP.DEPBAR.LE gsb0, 0x0",
               "EXIT"]), 1, "R88",
         "a guarded HGMMA may not run, so a wait after it may leave the word's group"),
        (straight(False, "@P0 WARPGROUP.DEPBAR.LE gsb0, 0x0", "MOV R90, RZ"), 1, "R90",
         "a guarded wait may not run"),
        (straight(False), 1, "R90", "a 64-bit write (.WIDE) whose second register is in flight"),
        (straight(False, "F2I.U64.TRUNC R89, R2"), 1, "R90",
         "a 64-bit conversion over a word in flight"),
        (straight(False, "LDSM.16.M88.4 R87, [R2]"), 1, "R90",
         "four matrices loaded over a word in flight"),
        (straight(False, "HMMA.16816.F32 R87, R4, R8, R12"), 1, "R90",
         "an HMMA's accumulators over a word in flight"),
        (straight(False, "HGMMA.64x8x16.F32 R87, gdesc[UR16], RZ, !UPT, gsb0"), 1, "R90",
         "an HGMMA's accumulators over a word in flight"),
        (straight(False, "IMAD.WIDE R91, R2, 0x4, R4"), 0, None,
         "a 64-bit write just past a word in flight"),
        (straight(True), 0, None, "a write after the group retired")]
    failed = 0
    for text, expected, reg, what in cases:
        rc, out = run(tool, text)
        found = violations(rc, out)
        if found != expected or rc != (1 if expected else 0) or (reg and reg not in out):
            failed += 1
            print(f"FAIL: {what}: exit {rc}, {out!r}", file=sys.stderr)
    rc, out = run(tool, sass(["MOV R1, R2", "EXIT"]))
    if rc != 1 or "0 function" not in out:
        failed += 1
        print(f"FAIL: no HGMMA.SP found must fail: exit {rc}, {out!r}", file=sys.stderr)
    print(f"{len(cases) + 1 - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
