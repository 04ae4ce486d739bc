#!/usr/bin/env python3
"""bench_table.py: the tables of bench_device.sh from its runs.log.

runs.log holds, for each run, a line
  === NAME k=K --path P --precision Q --maxit M [--largest]: exit S wall W
followed by the lobpcg program's output. Writes CSV to --csv and a Markdown
table (with the speedup of each tensor-core run over the cuSPARSE run of the
same matrix and k) to --md. Standard library only.

usage: bench_table.py RUNS_LOG --csv OUT.csv --md OUT.md [--device D] [--date D] [--commit C]
"""
import argparse
import csv
import re

HEADER = re.compile(r"^=== (\S+) k=(\d+) --path (\S+) --precision (\S+) --maxit (\d+) ?(--largest)?: "
                    r"exit (\S+)(?: wall (\S+))?$")
SIZE = re.compile(r"^# lobpcg: .*: (\d+) x \d+, (\d+) non-zeros")
STATUS = {"0": "converged", "1": "not converged", "2": "error", "124": "timeout", "skipped": "skipped"}
FIELDS = ["matrix", "rows", "nnz", "end", "k", "path", "precision", "plan_path", "plan_precision",
          "status", "iterations", "converged", "stop_reason", "max_residual", "wall_s", "read_s",
          "plan_s", "solve_s", "spmm_s", "rest_s", "spmm_calls"]


def parse(path):
    runs, run = [], None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            m = HEADER.match(line)
            if m:
                name, k, p, q, _, largest, status, wall = m.groups()
                run = {"matrix": name, "k": k, "path": p, "precision": q,
                       "end": "largest" if largest else "smallest",
                       "status": STATUS.get(status, "exit " + status), "wall_s": wall or "",
                       "max_residual": ""}
                runs.append(run)
                continue
            if run is None:
                continue
            m = SIZE.match(line)
            if m:
                run["rows"], run["nnz"] = m.groups()
            words = line.split()
            if len(words) == 5 and words[0] == "eigenvalue" and words[3] == "residual":
                if run["max_residual"] == "" or float(words[4]) > float(run["max_residual"]):
                    run["max_residual"] = words[4]
            elif len(words) == 2 and re.fullmatch(r"[a-z_]+", words[0]):
                key = words[0][5:] if words[0].startswith("time_") else words[0]
                run[key] = words[1]
    return runs


def markdown(runs, device, date, commit):
    base = {(r["matrix"], r["k"]): r for r in runs if r["path"] == "cusparse" and r.get("solve_s")}
    out = [f"# LOBPCG on tcspmm: {device}, {date}, commit {commit}", "",
           "Relative residual ||A x - lambda x|| / (normA ||x||), normA = max_i sum_j |a_ij|; tol 1e-6;",
           "guard columns max(4, k/4). Seconds: solve = the iterations (SpMM + rest), SpMM = inside",
           "tcspmm_spmm (synchronized), rest = the dense work; wall = the whole command (read, plan,",
           "solve). Speedup = cuSPARSE run's time / this run's, same matrix and k (converged runs only).", "",
           "| matrix | rows | end | k | A*X | status | iters | max residual | wall | solve | SpMM | rest | solve speedup | SpMM speedup |",
           "|---|---:|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in runs:
        b = base.get((r["matrix"], r["k"]))
        status = r["status"] if r["status"] != "not converged" else r.get("stop_reason", r["status"])
        def ratio(key):
            if r["status"] != "converged":
                return ""  # a run that stopped early is no comparison
            try:
                return f"{float(b[key]) / float(r[key]):.2f}x"
            except (TypeError, KeyError, ValueError, ZeroDivisionError):
                return ""
        out.append(f"| {r['matrix']} | {r.get('rows', '')} | {r['end']} | {r['k']} | "
                   f"{r['path']} {r.get('plan_precision', r['precision'])} | {status} | "
                   f"{r.get('iterations', '')} | {r['max_residual']} | {r['wall_s']} | "
                   f"{r.get('solve_s', '')} | {r.get('spmm_s', '')} | {r.get('rest_s', '')} | "
                   f"{ratio('solve_s')} | {ratio('spmm_s')} |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs_log")
    ap.add_argument("--csv", required=True)
    ap.add_argument("--md", required=True)
    ap.add_argument("--device", default="")
    ap.add_argument("--date", default="")
    ap.add_argument("--commit", default="")
    args = ap.parse_args()
    runs = parse(args.runs_log)
    with open(args.csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS, extrasaction="ignore")
        w.writeheader()
        w.writerows(runs)
    with open(args.md, "w") as f:
        f.write(markdown(runs, args.device, args.date, args.commit))


if __name__ == "__main__":
    main()
