#!/usr/bin/env python3
"""calibrate_auto.py: derive the auto path's rule (src/auto_path.c) from
sweeps run with --path hrpb (tools/sweep.py, which times the HRPB kernel and
the best cuSPARSE algorithm in the same process).

The rule, per precision (the CSV's precision column: tf32 or fp32) and N:
take HRPB when
  alpha >= dense_alpha and waves >= dense_waves, or
  alpha >= fill_alpha and waves >= 3.5 and median blocks per panel <= 10.
For each (precision, N) this tries every alpha of the sweep (and infinity)
for dense_alpha and fill_alpha, and 0, 0.6, 1 for dense_waves, and keeps the
thresholds with the best geomean speedup over all matrices (a matrix left on
cuSPARSE counts as 1x) such that every matrix sent to HRPB ran at least
`--margin` times faster than cuSPARSE (default 1.05, so that timing noise
cannot put the auto path under 0.95x). Ties go to the rule that sends fewer
matrices to HRPB. Prints the thresholds and what the rule chooses.

A row is timed on HRPB where the path it ran (path_run; path where the CSV has
none) is hrpb: a measured auto plan reports path auto and runs what its
measurement chose. Rows are fitted per precision, row order and N, each
matrix (its file column, whole) once: its first timed row, the CSVs read in
the order given; its first untimed row only where no CSV has a timed one.

Rows of an auto sweep that ran cuSPARSE carry no HRPB time, so the fit cannot
see whether HRPB loses on them. The fitted rule is checked against those
rows too: any it would send to HRPB is listed as untested (a lower threshold
than the sweep's rule used can pick them; time them with --path hrpb).

usage: calibrate_auto.py SWEEP.csv [SWEEP.csv ...] [--margin 1.05]
"""
import argparse
import csv
import math
import re

FILL_WAVES, FILL_BLOCKS_PER_PANEL = 3.5, 10
DENSE_WAVES = (0.0, 0.6, 1.0)


def requested_precision(r):
    """The precision the sweep asked for. A cuSPARSE row reports the precision
    cuSPARSE ran in (fp32); its path_reason names the one asked for."""
    m = re.search(r", (tf32|fp32), (?:natural|clustered) rows", r.get("path_reason", ""))
    return m.group(1) if m and r.get("path") != "hrpb" else r["precision"]


def load(paths):
    """Two maps (precision, row order, n) -> [(alpha, waves, median blocks
    per panel, speedup, file)]: the rows timed on HRPB, and the rows without
    an HRPB time (an auto sweep's cuSPARSE choices); a matrix once per key,
    timed where any of its rows is."""
    timed, untimed = {}, {}  # key -> {file: point}, the first row kept
    for path in paths:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                try:
                    key = (requested_precision(r), r.get("row_order") or "natural", int(r["n"]))
                    p = (float(r["alpha"]), float(r["waves"]), float(r["blocks_per_panel_median"]),
                         float(r["speedup"]), r.get("file", ""))
                except (KeyError, ValueError):
                    continue
                if r.get("check_pass") not in ("1", "true"):
                    continue
                is_timed = (r.get("path_run") or r.get("path")) == "hrpb" and math.isfinite(p[3])
                (timed if is_timed else untimed).setdefault(key, {}).setdefault(p[4], p)
    untimed = {key: [p for file, p in points.items() if file not in timed.get(key, {})]
               for key, points in untimed.items()}
    return {key: list(points.values()) for key, points in timed.items()}, untimed


def chosen(points, dense_alpha, dense_waves, fill_alpha):
    return [p for p in points
            if (p[0] >= dense_alpha and p[1] >= dense_waves)
            or (p[0] >= fill_alpha and p[1] >= FILL_WAVES and p[2] <= FILL_BLOCKS_PER_PANEL)]


def calibrate(points, margin):
    alphas = sorted({p[0] for p in points}) + [math.inf]
    best = None
    for dense_alpha in alphas:
        for dense_waves in DENSE_WAVES:
            for fill_alpha in alphas:
                picked = chosen(points, dense_alpha, dense_waves, fill_alpha)
                if any(p[3] < margin for p in picked):
                    continue
                geomean = math.exp(sum(math.log(p[3]) for p in picked) / len(points))
                key = (round(geomean, 9), -len(picked))
                if best is None or key > best[0]:
                    best = (key, (dense_alpha, dense_waves, fill_alpha), picked)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--margin", type=float, default=1.05)
    args = ap.parse_args()
    timed, untimed = load(args.csv)
    for (precision, order, n), points in sorted(timed.items()):
        (geomean, _), (dense_alpha, dense_waves, fill_alpha), picked = calibrate(points, args.margin)
        print(f"{precision} {order} N={n}: dense_alpha={dense_alpha:.4f} dense_waves={dense_waves} "
              f"fill_alpha={fill_alpha:.4f}: HRPB on {len(picked)}/{len(points)} matrices, "
              f"geomean over all {geomean:.3f}x" +
              (f", slowest chosen {min(p[3] for p in picked):.2f}x" if picked else ""))
        print("  HRPB: " + ", ".join(f"{p[4]} ({p[3]:.2f}x)" for p in sorted(picked, key=lambda p: -p[3])))
        blind = chosen(untimed.get((precision, order, n), []), dense_alpha, dense_waves,
                       fill_alpha)
        if blind:
            print("  UNTESTED: also sent to HRPB, with no HRPB time in these sweeps: " +
                  ", ".join(f"{p[4]} (alpha {p[0]:.3f})" for p in sorted(blind)))


if __name__ == "__main__":
    main()
