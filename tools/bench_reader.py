#!/usr/bin/env python3
"""bench_reader.py: Matrix Market reader throughput, ours against
fast_matrix_market and scipy.io.mmread, on the same files at the same thread
counts, and prints a markdown table.

Each reader runs in its own fresh process with OMP_NUM_THREADS=T (ours:
tools/mtx_read_bench --threads T; fast_matrix_market: mmread(parallelism=T);
scipy: mmread under threadpoolctl's limit of T, which scipy's
fast_matrix_market backend obeys). A process does one untimed warm-up read
and then --reps timed reads and reports their median; the readers take turns
within each of --rounds rounds, in rotating order, so they share the
machine's conditions; the table gives the median over rounds. Only the read
call is timed (not process start or imports). MB/s counts the file's bytes
as stored; nnz/s counts the entries the file stores (its size line).

usage: bench_reader.py --bench PATH/mtx_read_bench --files F... --threads T...
                       [--rounds 5] [--reps 3]
"""
import argparse
import gzip
import os
import statistics
import subprocess
import sys
import time


def worker(reader, path, threads, reps):
    """Runs in a child process: times `reps` reads, prints the median in s."""
    if reader == "fast_matrix_market":
        import fast_matrix_market as fmm

        def read():
            return fmm.mmread(path, parallelism=threads)
    else:
        import scipy.io
        import threadpoolctl

        def read():
            with threadpoolctl.threadpool_limits(limits=threads, user_api="scipy"):
                return scipy.io.mmread(path)
    read()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        read()
        times.append(time.perf_counter() - t0)
    print(statistics.median(times))


def stored_entries(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        banner = f.readline().split()
        for line in f:
            if line.strip() and not line.startswith("%"):
                size = [int(x) for x in line.split()]
                if banner[2].lower() == "coordinate":
                    return size[2]
                return size[0] * size[1]
    raise SystemExit(f"{path}: no size line")


def run_once(reader, bench, path, threads, reps):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    if reader == "tcspmm":
        cmd = [bench, path, "--threads", str(threads), "--reps", str(reps)]
        out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
        fields = dict(kv.split("=", 1) for kv in out.split())
        return float(fields["median_s"])
    cmd = [sys.executable, __file__, "--worker", reader, path, str(threads), str(reps)]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    return float(out.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    ap.add_argument("--bench")
    ap.add_argument("--files", nargs="+")
    ap.add_argument("--threads", nargs="+", type=int)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    if a.worker:
        reader, path, threads, reps = a.worker
        worker(reader, path, int(threads), int(reps))
        return
    if not (a.bench and a.files and a.threads):
        ap.error("--bench, --files and --threads are required")
    readers = ["tcspmm", "fast_matrix_market", "scipy"]
    print("| file | threads | reader | median s | MB/s | nnz/s | vs fast_matrix_market |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: |")
    for path in a.files:
        size, nnz = os.path.getsize(path), stored_entries(path)
        for t in a.threads:
            times = {r: [] for r in readers}
            for k in range(a.rounds):
                for r in readers[k % 3:] + readers[:k % 3]:
                    times[r].append(run_once(r, a.bench, path, t, a.reps))
            med = {r: statistics.median(v) for r, v in times.items()}
            for r in readers:
                print(f"| {os.path.basename(path)} | {t} | {r} | {med[r]:.4f} | "
                      f"{size / med[r] / 1e6:.1f} | {nnz / med[r] / 1e6:.2f}M | "
                      f"{med['fast_matrix_market'] / med[r]:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
