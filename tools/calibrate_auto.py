#!/usr/bin/env python3
"""calibrate_auto.py: derive the auto path's rule from a sweep run with
--path hrpb (tools/sweep.py, which times the HRPB kernel and the best
cuSPARSE algorithm in the same process).

The rule has one number per N bucket: take HRPB when the plan's alpha (mean
non-zeros per active brick column / 16) is at least a_min(N). a_min is the
smallest alpha such that every timed matrix at or above it ran HRPB at least
`--margin` times faster than cuSPARSE (default 1.05, so that timing noise
cannot put the auto path under 0.95x). Prints the table for src/auto_path.c
and, per bucket, what the rule would choose.

usage: calibrate_auto.py SWEEP.csv [SWEEP.csv ...] [--margin 1.05]
"""
import argparse
import csv
import math


def load(paths):
    rows = []
    for path in paths:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                try:
                    speedup, alpha, n = float(r["speedup"]), float(r["alpha"]), int(r["n"])
                except (KeyError, ValueError):
                    continue
                if r.get("path") == "hrpb" and math.isfinite(speedup) and r.get("check_pass") in ("1", "true"):
                    rows.append((n, alpha, speedup, r.get("file", "")))
    return rows


def threshold(points, margin):
    """Smallest alpha a such that all points with alpha >= a have speedup >= margin."""
    best = math.inf
    for alpha, speedup, _ in sorted(points, reverse=True):
        if speedup < margin:
            break
        best = alpha
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--margin", type=float, default=1.05)
    args = ap.parse_args()
    rows = load(args.csv)
    for n in sorted({r[0] for r in rows}):
        points = [(a, s, f) for (m, a, s, f) in rows if m == n]
        a_min = threshold(points, args.margin)
        chosen = [(a, s, f) for (a, s, f) in points if a >= a_min]
        gm = math.exp(sum(math.log(s) for _, s, _ in chosen) / len(chosen)) if chosen else float("nan")
        print(f"N={n}: a_min={a_min:.4f}  HRPB on {len(chosen)}/{len(points)} matrices, "
              f"their geomean speedup {gm:.2f}x, slowest {min((s for _, s, _ in chosen), default=float('nan')):.2f}x")
        lost = sorted((s, a, f) for (a, s, f) in points if a < a_min and s >= args.margin)
        if lost:
            print(f"  faster on HRPB but below a_min (kept on cuSPARSE): "
                  + ", ".join(f"{f.split('/')[-1]} ({s:.2f}x, alpha {a:.3f})" for s, a, f in lost))


if __name__ == "__main__":
    main()
