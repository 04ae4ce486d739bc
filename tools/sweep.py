#!/usr/bin/env python3
"""sweep.py: runs spmm_run's benchmark over many matrices and summarizes it.

  sweep.py run --spmm-run PATH --out DIR [--n 32,128,512] [--reps 50]
               [--extra=ARGS] [--timeout S] INPUTS...
      INPUTS are .mtx / .mtx.gz files, directories holding them (searched
      recursively), or gen:SPEC strings (see spmm_gen --help). Runs
      `spmm_run INPUT --n N --bench --check --json --reps R ARGS` for each
      input and N, keeps going past failures (recorded in the status and
      error columns), and writes DIR/sweep.csv (rewritten after every run)
      and DIR/sweep.jsonl (the raw JSON lines).

  sweep.py report --csv DIR/sweep.csv --out DIR
      Writes DIR/summary.md (per N: geomean speedup over cuSPARSE per
      synergy class and overall, matrices below 0.95x, the worst ones,
      failures; device, date and commit from the CSV) and
      DIR/speedup_vs_alpha.png (needs matplotlib; skipped with a message
      when it is missing).

Only the standard library is needed, and matplotlib for the plot. Every
spmm_run key is optional: rows lacking a number are left out of the
statistics that need it.
"""
import argparse
import csv
import datetime
import json
import math
import os
import shlex
import statistics
import subprocess
import sys

# spmm_run --json keys, in the order the CSV lists them; others follow sorted.
KNOWN_KEYS = [
    "file", "rows", "cols", "nnz", "n", "layout", "path", "path_run", "path_reason", "precision",
    "structure", "synergy", "alpha", "beta", "brick_density", "oi_shared",
    "time_ms", "gflops", "cusparse_ms", "cusparse_alg", "cusparse_gflops", "speedup",
    "roofline_frac", "min_bytes", "copy_gbs", "reps",
    "check_pass", "check_rel_err", "check_max_abs_err", "typed_check_pass", "typed_check_rel_err",
    "read_ms", "plan_ms", "plan_ms_warm", "preprocess_ms", "upload_ms", "first_call_ms",
    "typed_first_call_ms",
    "panels", "blocks", "bricks", "hrpb_bytes", "csr_bytes",
    "blocks_per_panel_min", "blocks_per_panel_median", "blocks_per_panel_max",
    "virtual_panels", "split_panels", "waves", "has_gpu", "device", "commit", "date",
]
SWEEP_KEYS = ["input", "n_requested", "status", "error", "elapsed_s"]
SLOW = 0.95  # speedups below this count as losses
SYNERGY_CLASSES = ["high", "medium", "low", "unknown"]


# ---------------------------------------------------------------- run

def expand_inputs(inputs):
    """Files and gen: specs as given; directories become their .mtx[.gz] files."""
    found = []
    for item in inputs:
        if item.startswith("gen:"):
            found.append(item)
        elif os.path.isdir(item):
            matrices = []
            for root, dirs, files in os.walk(item):
                dirs.sort()
                matrices += [os.path.join(root, f) for f in sorted(files)
                             if f.endswith(".mtx") or f.endswith(".mtx.gz")]
            if not matrices:
                print(f"sweep: no .mtx or .mtx.gz files under {item}", file=sys.stderr)
            found += matrices
        else:
            found.append(item)  # a missing file fails in spmm_run and is recorded
    return found


def parse_json_lines(text):
    """The JSON objects of spmm_run's output, one per line; other lines ignored."""
    objects = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            objects.append(value)
    return objects


def last_lines(text, count=3):
    lines = [l.strip() for l in text.strip().splitlines() if l.strip()]
    return " | ".join(lines[-count:])


def failed_check(obj):
    """Whether an spmm_run --json object reports a failed check against float64,
    of the float call or of the timed call of 16-bit types."""
    return any(str(obj.get(key, "")).lower() in ("false", "0")
               for key in ("check_pass", "typed_check_pass"))


def run_one(spmm_run, matrix, n, reps, extra, timeout):
    """Rows (dicts) for one spmm_run call: its JSON objects, or one error row."""
    cmd = [spmm_run, matrix, "--n", str(n), "--bench", "--check", "--json",
           "--reps", str(reps)] + extra
    base = {"input": matrix, "n_requested": n}
    start = datetime.datetime.now()
    try:
        proc = subprocess.run(cmd, capture_output=True, encoding="utf-8", errors="replace",
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return [dict(base, status="timeout", error=f"no answer within {timeout} s")]
    except OSError as e:
        return [dict(base, status="error", error=f"cannot run {spmm_run}: {e}")]
    elapsed = round((datetime.datetime.now() - start).total_seconds(), 3)
    objects = parse_json_lines(proc.stdout)
    # spmm_run exits 1 when its check against float64 fails, with the row printed
    check_failed = proc.returncode == 1 and objects and failed_check(objects[-1])
    if (proc.returncode != 0 and not check_failed) or not objects:
        why = last_lines(proc.stderr) or last_lines(proc.stdout) or "no output"
        row = dict(base, status="error", elapsed_s=elapsed,
                   error=f"exit {proc.returncode}: {why}")
        if objects:  # keep what it did report
            row = dict(objects[-1], **row)
        return [row]
    rows = []
    for obj in objects:
        row = dict(obj, **base, elapsed_s=elapsed)
        row["status"] = "check_failed" if failed_check(obj) else "ok"
        row["error"] = "" if row["status"] == "ok" else "check against float64 failed"
        rows.append(row)
    return rows


def csv_cell(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    return value


def write_csv(path, rows):
    keys = list(SWEEP_KEYS) + [k for k in KNOWN_KEYS]
    extra = sorted({k for r in rows for k in r} - set(keys))
    keys += extra
    tmp = path + ".tmp"
    with open(tmp, "w", newline="", encoding="utf-8", errors="replace") as f:  # names: any bytes
        w = csv.DictWriter(f, fieldnames=keys, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: csv_cell(r.get(k)) for k in keys})
    os.replace(tmp, path)


def parse_ns(text):
    try:
        ns = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise SystemExit(f"sweep: --n wants comma-separated integers, got '{text}'")
    if not ns or min(ns) < 1:
        raise SystemExit(f"sweep: --n wants positive integers, got '{text}'")
    return ns


def command_run(args):
    ns = parse_ns(args.n)
    extra = [a for chunk in (args.extra or []) for a in shlex.split(chunk)]
    matrices = expand_inputs(args.inputs)
    if not matrices:
        raise SystemExit("sweep: no inputs")
    os.makedirs(args.out, exist_ok=True)
    csv_path = os.path.join(args.out, "sweep.csv")
    jsonl_path = os.path.join(args.out, "sweep.jsonl")
    rows, failures = [], 0
    with open(jsonl_path, "w") as raw:
        for i, matrix in enumerate(matrices):
            for n in ns:
                got = run_one(args.spmm_run, matrix, n, args.reps, extra, args.timeout)
                for r in got:
                    raw.write(json.dumps(r) + "\n")
                raw.flush()
                rows += got
                write_csv(csv_path, rows)
                bad = [r for r in got if r["status"] != "ok"]
                failures += len(bad)
                r = got[-1]
                what = (f"speedup {r.get('speedup', '?')} path {ran_path(r)}"
                        if not bad else f"{r['status']}: {r.get('error', '')}")
                print(f"[{i + 1}/{len(matrices)}] {matrix} N={n}: {what}", flush=True)
    print(f"sweep: {len(rows)} rows, {failures} failed, in {csv_path}")
    return 0


# ---------------------------------------------------------------- report
def ran_path(r):
    """The path a row's products ran: path_run where the plan measured its
    choice (path "auto"), else the plan's path."""
    return r.get("path_run") or r.get("path") or "?"


def number(row, key):
    """row[key] as a finite float, or None."""
    try:
        x = float(row.get(key, ""))
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def geomean(values):
    values = [v for v in values if v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def median(values):
    """statistics.median of values (the mean of the middle two for an even
    count), None for none."""
    x = list(values)
    return statistics.median(x) if x else None


def fmt(x, digits=2, suffix=""):
    return "-" if x is None else f"{x:.{digits}f}{suffix}"


def row_n(row):
    n = number(row, "n")
    if n is None:
        n = number(row, "n_requested")
    return int(n) if n is not None else None


def row_ok(row):
    """A run that finished and passed its check (a CSV without status: all)."""
    return (row.get("status") or "ok") == "ok"


def synergy_class(row):
    s = (row.get("synergy") or "").strip().lower()
    return s if s in SYNERGY_CLASSES else "unknown"


def row_name(row):
    return row.get("file") or row.get("input") or "?"


def distinct(rows, key):
    values = sorted({(r.get(key) or "").strip() for r in rows} - {""})
    return ", ".join(values) if values else "unknown"


def summary_for_n(n, rows, worst_count):
    timed = [r for r in rows if row_ok(r) and (number(r, "speedup") or 0) > 0]
    failed = [r for r in rows if not row_ok(r)]
    out = [f"## N = {n}", ""]
    untimed = len(rows) - len(timed) - len(failed)
    out.append(f"{len(timed)} matrices timed, {untimed} ran without a speedup (no GPU or no "
               f"--bench), {len(failed)} failed.")
    out.append("")
    out.append("| synergy | matrices | geomean speedup | min | max | below "
               f"{SLOW}x | median roofline |")
    out.append("|---|---|---|---|---|---|---|")
    groups = [(c, [r for r in timed if synergy_class(r) == c]) for c in SYNERGY_CLASSES]
    groups = [(c, g) for c, g in groups if g] + [("all", timed)]
    for name, group in groups:
        sp = [number(r, "speedup") for r in group]
        median_roof = median(x for x in (number(r, "roofline_frac") for r in group)
                             if x is not None)
        slow = sum(1 for s in sp if s < SLOW)
        label = f"**{name}**" if name == "all" else name
        out.append(f"| {label} | {len(group)} | {fmt(geomean(sp), 3, 'x')} | "
                   f"{fmt(min(sp) if sp else None, 3)} | {fmt(max(sp) if sp else None, 3)} | "
                   f"{slow} | {fmt(median_roof, 2)} |")
    out.append("")
    paths = sorted({ran_path(r) for r in timed})
    if len(paths) > 1 or (paths and paths[0] != "?"):
        parts = []
        for p in paths:
            g = [number(r, "speedup") for r in timed if ran_path(r) == p]
            parts.append(f"{p}: {len(g)} matrices, geomean {fmt(geomean(g), 3, 'x')}")
        out.append("By path: " + "; ".join(parts) + ".")
        out.append("")
    plan = [(number(r, "nnz") or 0, number(r, "plan_ms"), number(r, "plan_ms_warm"),
             number(r, "cusparse_ms")) for r in timed]
    plan = [p for p in plan if p[1] is not None and p[3]]
    if plan:
        out.append("Plan creation / one cuSPARSE SpMM (plan_ms: the first plan of the process; "
                   "warm: the median of 5 more):")
        out.append("")
        out.append("| matrices | count | median | max | warm median | warm max |")
        out.append("|---|---|---|---|---|---|")
        for label, group in (("all", plan), (">= 10M non-zeros", [p for p in plan if p[0] >= 1e7])):
            if not group:
                continue
            cold = [p[1] / p[3] for p in group]
            warm = [p[2] / p[3] for p in group if p[2] is not None]
            out.append(f"| {label} | {len(group)} | {fmt(median(cold), 1, 'x')} | "
                       f"{fmt(max(cold), 1, 'x')} | {fmt(median(warm), 1, 'x')} | "
                       f"{fmt(max(warm) if warm else None, 1, 'x')} |")
        out.append("")
    worst = sorted(timed, key=lambda r: number(r, "speedup"))[:worst_count]
    if worst:
        out.append(f"Worst {len(worst)}:")
        out.append("")
        out.append("| matrix | speedup | synergy | alpha | path | ours ms | cuSPARSE ms |")
        out.append("|---|---|---|---|---|---|---|")
        for r in worst:
            out.append(f"| {row_name(r)} | {fmt(number(r, 'speedup'), 3)} | "
                       f"{r.get('synergy') or '-'} | {fmt(number(r, 'alpha'), 3)} | "
                       f"{ran_path(r)} | {fmt(number(r, 'time_ms'), 4)} | "
                       f"{fmt(number(r, 'cusparse_ms'), 4)} |")
        out.append("")
    if failed:
        out.append("Failed:")
        out.append("")
        for r in failed:
            error = (r.get("error") or "").replace("|", "/")
            out.append(f"- {row_name(r)}: {r.get('status')}: {error}")
        out.append("")
    return out


def plot(rows, path):
    """Scatter of speedup against alpha, one colour per N, log y. Returns a note."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        return "matplotlib is not installed: speedup_vs_alpha.png was not written."
    fig, ax = plt.subplots(figsize=(7, 4.5))
    points = 0
    for n in sorted({row_n(r) for r in rows} - {None}):
        xs, ys = [], []
        for r in rows:
            a, s = number(r, "alpha"), number(r, "speedup")
            if row_n(r) == n and row_ok(r) and a is not None and s and s > 0:
                xs.append(a)
                ys.append(s)
        if xs:
            ax.scatter(xs, ys, s=14, alpha=0.75, label=f"N = {n}")
            points += len(xs)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.axhline(SLOW, color="gray", linewidth=0.8, linestyle="--")
    ax.set_yscale("log")
    label = matplotlib.ticker.FuncFormatter(lambda y, _: f"{y:g}x")
    ax.yaxis.set_major_formatter(label)
    ax.yaxis.set_minor_formatter(label)
    ax.set_xlabel("alpha (the plan's HRPB synergy metric)")
    ax.set_ylabel("speedup over best cuSPARSE")
    ax.set_title("tcspmm speedup against alpha")
    if points:
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return f"speedup_vs_alpha.png: {points} points."


def command_report(args):
    with open(args.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    os.makedirs(args.out, exist_ok=True)
    ns = sorted({row_n(r) for r in rows} - {None})
    lines = ["# SpMM sweep summary", ""]
    lines.append(f"- device: {distinct(rows, 'device')}")
    lines.append(f"- date: {distinct(rows, 'date')}")
    lines.append(f"- commit: {distinct(rows, 'commit')}")
    lines.append(f"- precision: {distinct(rows, 'precision')}")
    lines.append(f"- source: {os.path.basename(args.csv)}, {len(rows)} rows, "
                 f"{len({row_name(r) for r in rows})} matrices, N in "
                 f"{', '.join(str(n) for n in ns) or 'none'}")
    lines.append("")
    lines.append("Speedup = best cuSPARSE time / tcspmm time, same process and N; geomean "
                 "over the matrices whose run passed its check.")
    lines.append("")
    for n in ns:
        lines += summary_for_n(n, [r for r in rows if row_n(r) == n], args.worst)
    unsized = [r for r in rows if row_n(r) is None]
    if unsized:
        lines.append(f"{len(unsized)} rows without N were left out.")
        lines.append("")
    note = plot(rows, os.path.join(args.out, "speedup_vs_alpha.png"))
    lines.append(note)
    lines.append("")
    summary = os.path.join(args.out, "summary.md")
    with open(summary, "w") as f:
        f.write("\n".join(lines))
    print(f"sweep: wrote {summary}; {note}")
    return 0


def main(argv=None):
    sys.stdout.reconfigure(errors="backslashreplace")  # file names are any bytes
    parser = argparse.ArgumentParser(prog="sweep.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="benchmark matrices with spmm_run")
    run.add_argument("--spmm-run", required=True, help="path of the spmm_run binary")
    run.add_argument("--out", required=True, help="output directory")
    run.add_argument("--n", default="32,128,512", help="comma-separated N values")
    run.add_argument("--reps", type=int, default=50, help="timed runs per measurement")
    run.add_argument("--extra", action="append",
                     help="more spmm_run arguments, e.g. --extra='--path auto' (repeatable)")
    run.add_argument("--timeout", type=float, default=600, help="seconds per spmm_run call")
    run.add_argument("inputs", nargs="+", help=".mtx[.gz] files, directories, gen:SPEC")
    report = sub.add_parser("report", help="summarize a sweep CSV")
    report.add_argument("--csv", required=True)
    report.add_argument("--out", required=True)
    report.add_argument("--worst", type=int, default=5, help="worst matrices listed per N")
    args = parser.parse_args(argv)
    return command_run(args) if args.command == "run" else command_report(args)


if __name__ == "__main__":
    sys.exit(main())
