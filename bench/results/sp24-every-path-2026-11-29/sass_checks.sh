#!/usr/bin/env bash
# The SASS figures of this folder's README and of bench/NOTES.md's session-63 section, without
# a GPU: the structured kernel compiled by each commit's tools/sass_build.py at 250826f, at
# ba8dfe9, and as three variants of ba8dfe9 (e0/e1 declared inside the unit loop; wait_group 2
# in place of 1; the hold after the wait dropped); for each, tools/check_meta_regs.py (this
# tree's) on its SASS, ptxas's C7513 messages and the local loads and stores per kernel. Then
# the tool's test against 15 mutants of the tool. Run from the repository root; prints the
# record.
#   NVDISASM=/path/to/nvdisasm bash bench/results/sp24-every-path-2026-11-29/sass_checks.sh
set -u
T=$(mktemp -d); ND=${NVDISASM:-nvdisasm}
K=src/kernels/sp24_wgmma.cu
tree() {  # tree NAME COMMIT [SED-SCRIPT]: the sources of COMMIT at $T/NAME, edited
  mkdir -p $T/$1 && git archive $2 include src tools | tar -x -C $T/$1
  [ $# -gt 2 ] && sed -i "$3" $T/$1/$K
  true
}
tree base 250826f
tree new ba8dfe9
tree inside ba8dfe9 '/uint32_t e0\[MW \* KT\] = {}, e1\[MW \* KT\] = {};/d; s|^\(        if constexpr (IN_FLIGHT) {\)$|        uint32_t e0[MW * KT] = {}, e1[MW * KT] = {};\n\1|'
tree wait2 ba8dfe9 's/                wgmma_wait<1>();/                wgmma_wait<2>();/'
tree nohold ba8dfe9 '/^                hold_words(held, never, sink);$/d'
for v in base new inside wait2 nohold; do
  python3 -c "import sys; sys.path.insert(0, '$T/$v/tools'); import sass_build
sass, messages = sass_build.cubin_sass('$T/$v/$K', 'sm_90a', '$ND')
open('$T/$v/k.sass', 'w').write(sass); open('$T/$v/msgs.txt', 'w').write(messages)" &
  [ $v = new ] && wait
done
wait
for v in base new inside wait2 nohold; do
  echo "== $v"
  python3 tools/check_meta_regs.py --sass $T/$v/k.sass | tail -1
  echo "C7513 messages: $(grep -c C7513 $T/$v/msgs.txt)"
  echo "STL $(grep -c 'STL' $T/$v/k.sass), LDL $(grep -c 'LDL' $T/$v/k.sass) in the file; per kernel with any:"
  awk '/^\s*\.text\./ {f=$1} /STL|LDL/ {n[f]++} END {for (k in n) print "  " n[k], k}' $T/$v/k.sass | sort -k2
done
echo "== the tool's test against mutants of the tool (each must fail)"
python3 - <<'PY'
import subprocess, sys, tempfile, shutil, os
src = open("tools/check_meta_regs.py").read()
muts = {
    "max merge": ("return {r: min(a.get(r, MAX_AGE), b.get(r, MAX_AGE)) for r in set(a) | set(b)}",
                  "return {r: max(a.get(r, -1), b.get(r, -1)) for r in set(a) | set(b)}"),
    "never falls through": ('return ins.guarded or "," in ins.operands', "return False"),
    "condition operand ignored": ('return ins.guarded or "," in ins.operands', "return ins.guarded"),
    "no return edges": ('returns = [i + 1 for i, ins in enumerate(body) if ins.op.startswith("CALL")]',
                        "returns = []"),
    "one register a write": ("def width(op):\n", "def width(op):\n    return 1\n"),
    "guarded HGMMA runs": ("return merge(reader, ran) if ins.guarded else ran", "return ran"),
    "collective exit ignored": ('FLOW = ("BRA", "JMP", "CALL", "WARPSYNC")', 'FLOW = ("BRA", "JMP", "CALL")'),
    "calls not entered": ("return [labels[ins.target]] + (nxt if falls else [])",
                          'return ([] if ins.op.startswith("CALL") else [labels[ins.target]]) + (nxt if falls else [])'),
    "ages not advanced": ("ran = {r: min(age + 1, MAX_AGE) for r, age in ran.items()}", "ran = dict(ran)"),
    "wait keeps one fewer": ("if age <= keep}", "if age < keep}"),
    "exit falls through": ("        return nxt if conditional(ins) else []\n    return nxt",
                           "        return nxt\n    return nxt"),
    "HGMMA writes nothing": ('NO_DEST = ("ST",', 'NO_DEST = ("HGMMA", "ST",'),
    "guarded wait counts": ('if ins.op.startswith("WARPGROUP.DEPBAR") and not ins.guarded:',
                            'if ins.op.startswith("WARPGROUP.DEPBAR"):'),
    "opcode cut at lower case": (r"([A-Z][\w.]*)", r"([A-Z][A-Z0-9_.]*)"),
    "no subroutine labels": (r'LABEL = re.compile(r"^(\.L_x_\d+|\$__internal_\w+\$\w+):$")',
                             r'LABEL = re.compile(r"^(\.L_x_\d+):$")'),
}
tmp = tempfile.mkdtemp()
shutil.copy("tools/sass_build.py", tmp)
for name, (a, b) in muts.items():
    assert src.count(a) == 1, name
    open(os.path.join(tmp, "check_meta_regs.py"), "w").write(src.replace(a, b))
    r = subprocess.run([sys.executable, "tests/test_check_meta_regs.py",
                        os.path.join(tmp, "check_meta_regs.py")], capture_output=True, text=True)
    print("%-26s exit %d, %s" % (name, r.returncode, r.stdout.strip()))
r = subprocess.run([sys.executable, "tests/test_check_meta_regs.py", "tools/check_meta_regs.py"],
                   capture_output=True, text=True)
print("%-26s exit %d, %s" % ("the tool itself", r.returncode, r.stdout.strip()))
PY
rm -rf $T
