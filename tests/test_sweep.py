#!/usr/bin/env python3
"""test_sweep.py: tools/sweep.py on the CPU. `run` against a fake spmm_run
(a script printing --json lines, failing for one input, failing its check for
another, the check of its 16-bit call for a third, and printing the bytes of a
file name that is not UTF-8 for a fourth), then `report` on a
synthetic CSV with known speedups and missing keys. Usage: test_sweep.py PATH/TO/sweep.py"""
import csv
import math
import os
import stat
import subprocess
import sys
import tempfile

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}", file=sys.stderr)


FAKE_SPMM_RUN = r'''#!/usr/bin/env python3
import json, os, sys
args = sys.argv[1:]
matrix, n = args[0], int(args[args.index("--n") + 1])
for flag in ("--bench", "--check", "--json", "--reps"):
    if flag not in args:
        sys.exit(f"fake spmm_run: missing {flag}")
if "broken" in matrix:
    print("spmm_run: broken.mtx:3: bad header", file=sys.stderr)
    sys.exit(2)
obj = {"file": matrix, "rows": 10, "cols": 10, "nnz": 30, "n": n, "synergy": "high",
       "alpha": 0.5, "speedup": 1.0 + n / 100.0, "path": "hrpb", "check_pass": "wrong" not in matrix,
       "device": "FakeGPU", "commit": "abc123", "date": "2025-01-01", "extra_arg": args[-1]}
if "typed" in matrix:  # the float call passes, the call of 16-bit types fails
    obj.update(typed_check_pass=0, typed_check_rel_err=0.5)
print("some human line")
if "caf" in matrix:  # the name's own bytes, as spmm_run's human lines print them
    sys.stdout.flush()
    sys.stdout.buffer.write(b"matrix: " + os.fsencode(matrix) + b"\n")
    sys.stdout.flush()
print(json.dumps(obj))
sys.exit(0 if obj["check_pass"] and obj.get("typed_check_pass", 1) else 1)  # as spmm_run
'''


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def test_run(sweep, tmp):
    fake = os.path.join(tmp, "fake_spmm_run")
    with open(fake, "w") as f:
        f.write(FAKE_SPMM_RUN)
    os.chmod(fake, os.stat(fake).st_mode | stat.S_IXUSR)
    mats = os.path.join(tmp, "mats", "sub")
    os.makedirs(mats)
    for name in ("a.mtx", "broken.mtx", "wrong.mtx.gz", "typed.mtx", "notes.txt"):
        open(os.path.join(mats, name), "w").close()
    open(os.path.join(os.fsencode(mats), b"caf\xe9.mtx"), "w").close()  # not UTF-8
    out = os.path.join(tmp, "run_out")
    p = run([sys.executable, sweep, "run", "--spmm-run", fake, "--out", out, "--n", "32,128",
             "--reps", "5", "--extra=--path hrpb", os.path.join(tmp, "mats"),
             "gen:stencil2d:4:4:5"])
    check(p.returncode == 0, f"run exits 0 (got {p.returncode}: {p.stderr})")
    with open(os.path.join(out, "sweep.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    check(len(rows) == 12, f"6 inputs x 2 N give 12 rows (got {len(rows)})")
    inputs = sorted({r["input"] for r in rows})
    check(not any(i.endswith("notes.txt") for i in inputs), "directories give only .mtx[.gz]")
    check("gen:stencil2d:4:4:5" in inputs, "gen: specs are passed through")
    status = {(os.path.basename(r["input"]), r["n_requested"]): r for r in rows}
    check(status[("broken.mtx", "32")]["status"] == "error", "a failing matrix is recorded")
    check("bad header" in status[("broken.mtx", "128")]["error"], "its stderr is the error")
    check(status[("wrong.mtx.gz", "32")]["status"] == "check_failed", "failed check recorded")
    check(status[("typed.mtx", "128")]["status"] == "check_failed",
          "a failed check of the 16-bit call is recorded")
    check(status[("typed.mtx", "128")]["typed_check_rel_err"] == "0.5", "with its error")
    check(status[("a.mtx", "128")]["status"] == "ok", "a good run is ok")
    check(status[("caf?.mtx", "32")]["status"] == "ok",
          "a name that is not UTF-8 runs (its byte written as ?)")
    check(float(status[("a.mtx", "128")]["speedup"]) == 1 + 128 / 100.0,
          "JSON values reach the CSV")
    check(status[("a.mtx", "32")]["extra_arg"] == "hrpb", "--extra arguments are passed")
    check(status[("a.mtx", "32")]["check_pass"] == "true", "booleans written as true/false")
    with open(os.path.join(out, "sweep.jsonl")) as f:
        check(len(f.read().splitlines()) == 12, "sweep.jsonl has every row")


SYNTHETIC = [
    # file, n, synergy, alpha, speedup, status (missing keys left out on purpose)
    {"file": "h1", "n": "128", "synergy": "high", "alpha": "0.6", "speedup": "2.0",
     "roofline_frac": "0.2"},
    {"file": "h2", "n": "128", "synergy": "high", "alpha": "0.7", "speedup": "8.0",
     "roofline_frac": "0.4"},
    {"file": "l1", "n": "128", "synergy": "low", "alpha": "0.05", "speedup": "0.5"},
    {"file": "m1", "n": "128", "synergy": "medium", "speedup": "0.9"},
    {"file": "x1", "n": "128", "speedup": "1.0"},
    {"file": "bad", "n": "128", "status": "error", "error": "exit 2: out of memory"},
    {"file": "h1", "n": "32", "synergy": "high", "alpha": "0.6", "speedup": "3.0"},
    {"file": "nan", "n": "32", "synergy": "high", "alpha": "0.6", "speedup": "nan"},
]


def test_report(sweep, tmp):
    path = os.path.join(tmp, "synthetic.csv")
    keys = ["file", "n", "synergy", "alpha", "speedup", "roofline_frac", "status", "error",
            "device", "date", "commit"]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        for r in SYNTHETIC:
            w.writerow(dict(r, device="H100 test", date="2025-02-03", commit="feedbee"))
    out = os.path.join(tmp, "report_out")
    p = run([sys.executable, sweep, "report", "--csv", path, "--out", out])
    check(p.returncode == 0, f"report exits 0 (got {p.returncode}: {p.stderr})")
    text = open(os.path.join(out, "summary.md")).read()
    check("H100 test" in text and "2025-02-03" in text and "feedbee" in text,
          "device, date and commit come from the CSV")
    n128 = text[text.index("## N = 128"):]
    n32 = text[text.index("## N = 32"):text.index("## N = 128")]
    overall = math.exp((math.log(2) + math.log(8) + math.log(0.5) + math.log(0.9)) / 5)
    check(f"| high | 2 | {4.0:.3f}x |" in n128, "high-synergy geomean of 2 and 8 is 4")
    high_line = [l for l in n128.splitlines() if l.startswith("| high |")][0]
    check(high_line.split("|")[7].strip() == "0.30", "the median of two rooflines is their mean")
    check(f"| low | 1 | {0.5:.3f}x |" in n128, "low-synergy class")
    check(f"| unknown | 1 | {1.0:.3f}x |" in n128, "a row without synergy is 'unknown'")
    check(f"| **all** | 5 | {overall:.3f}x |" in n128, "overall geomean over all timed rows")
    all_line = [l for l in n128.splitlines() if l.startswith("| **all**")][0]
    check(all_line.split("|")[6].strip() == "2", "two matrices below 0.95x at N=128")
    worst = n128[n128.index("Worst"):]
    check(worst.index("| l1 |") < worst.index("| m1 |"), "worst list sorted by speedup")
    check("bad: error: exit 2: out of memory" in n128, "failures are listed")
    check(f"| **all** | 1 | {3.0:.3f}x |" in n32, "a nan speedup is left out")
    check("1 ran without a speedup" in n32, "rows without a speedup are counted")
    png = os.path.join(out, "speedup_vs_alpha.png")
    try:
        import matplotlib  # noqa: F401
        has_matplotlib = True
    except ImportError:
        has_matplotlib = False
    if has_matplotlib:
        check(os.path.getsize(png) > 1000, "the plot is written")
        check(open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n", "the plot is a PNG")
    else:
        print("skipping the PNG checks: matplotlib is not installed")
        check("matplotlib is not installed" in text, "the summary says the plot is missing")
        check(not os.path.exists(png), "no PNG without matplotlib")


def main():
    sweep = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        test_run(sweep, tmp)
        test_report(sweep, tmp)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
