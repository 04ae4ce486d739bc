#!/usr/bin/env python3
"""test_calibrate_auto.py: tools/calibrate_auto.py on a synthetic sweep whose
best thresholds are known: two dense-brick winners, a fill-test winner, a
loser for each test (which fix the thresholds), a row whose check failed
(ignored), two cuSPARSE rows of an auto sweep without an HRPB time, one of
which the fitted rule would send to HRPB and must be listed as untested, and
a measured auto row that ran HRPB (path auto, path_run hrpb: timed), and a
cuSPARSE row of a matrix the second sweep times. That sweep repeats a matrix
with another speedup (its first row counts), times that matrix (a winner:
timed, not untested), adds a winner whose file has the name of another's in
another folder (a matrix of its own), and a clustered-rows loser, fitted
apart from the natural rows.
Usage: test_calibrate_auto.py PATH/TO/calibrate_auto.py"""
import csv
import os
import subprocess
import sys
import tempfile

FIELDS = ["file", "precision", "n", "path", "path_run", "path_reason", "row_order", "alpha",
          "waves", "blocks_per_panel_median", "speedup", "check_pass"]


def row(name, alpha, waves, median, speedup, path="hrpb", check="1", ran=None,
        order="natural"):
    reason = f"cuSPARSE: alpha {alpha:.3f} at N=128, tf32, {order} rows favour CSR"
    ran = ran or path
    return {"file": f"m/{name}.mtx", "precision": "tf32" if ran == "hrpb" else "fp32",
            "n": 128, "path": path, "path_run": ran,
            "path_reason": "" if ran == "hrpb" else reason, "row_order": order,
            "alpha": alpha, "waves": waves, "blocks_per_panel_median": median,
            "speedup": speedup, "check_pass": check}


def write(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(rows)


def main():
    tool = sys.argv[1]
    rows = [row("dense_a", 0.30, 2.0, 4, 2.0), row("dense_b", 0.20, 2.0, 4, 1.5),
            row("dense_loser", 0.10, 2.0, 50, 0.9), row("fill_winner", 0.08, 5.0, 4, 1.2),
            row("fill_loser", 0.07, 5.0, 4, 0.8), row("check_failed", 0.06, 5.0, 4, 3.0, check="0"),
            row("untimed_chosen", 0.09, 6.0, 3, 1.0, path="cusparse"),
            row("untimed_left", 0.05, 6.0, 3, 1.0, path="cusparse"),
            row("measured_hrpb", 0.25, 2.0, 4, 1.8, path="auto", ran="hrpb"),
            row("timed_later", 0.095, 6.0, 3, 1.0, path="cusparse")]
    second = [row("dense_a", 0.30, 2.0, 4, 0.5), row("timed_later", 0.095, 6.0, 3, 1.3),
              row("other/dense_b", 0.20, 2.0, 4, 1.4),
              row("clustered_loser", 0.50, 2.0, 4, 0.5, order="clustered")]
    with tempfile.TemporaryDirectory() as tmp:
        paths = [os.path.join(tmp, "sweep.csv"), os.path.join(tmp, "second.csv")]
        write(paths[0], rows)
        write(paths[1], second)
        out = subprocess.run([sys.executable, tool] + paths, capture_output=True, text=True)
    text = out.stdout
    checks = [
        (out.returncode == 0, f"exit status {out.returncode}: {out.stderr}"),
        ("tf32 natural N=128: dense_alpha=0.2000 dense_waves=0.0 fill_alpha=0.0800" in text,
         "the thresholds that keep every choice at 1.05x or more"),
        ("HRPB on 6/8 matrices" in text,
         "six of the eight timed matrices chosen (the measured auto row among them; dense_a once)"),
        ("timed_later.mtx (1.30x)" in text and "timed_later.mtx (alpha" not in text,
         "a matrix timed in a later sweep counts as timed, not untested"),
        ("m/other/dense_b.mtx (1.40x)" in text and "m/dense_b.mtx (1.50x)" in text,
         "two files of one name in two folders are two matrices"),
        ("measured_hrpb.mtx (1.80x)" in text, "a measured auto row that ran HRPB counts as timed"),
        ("tf32 clustered N=128" in text and "HRPB on 0/1 matrices" in text,
         "clustered rows fitted on their own"),
        ("check_failed" not in text, "a row whose check failed is ignored"),
        ("UNTESTED" in text and "untimed_chosen" in text, "the untimed row the rule picks is listed"),
        ("untimed_left" not in text, "the untimed row the rule leaves is not"),
        ("fp32" not in text, "cuSPARSE rows count under the precision asked for"),
    ]
    failed = [what for ok, what in checks if not ok]
    for what in failed:
        print(f"FAIL: {what}", file=sys.stderr)
    if failed:
        print(text, file=sys.stderr)
    print(f"{len(checks) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
