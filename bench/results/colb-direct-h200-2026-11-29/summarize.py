"""Tables of the column-major experiment from call3-colb3.txt (old and new builds, n = 1-4,
TF32, and n = 2 FP32) and call4-colb4.txt (the new build, n = 3 FP32). A column-major product
takes what the build's rule chooses: old: in place at n = 1, else transposed; new: in place up
to n = 3 (f812b23; call 3 ran 576b3f4, whose in-place times at n = 3 are those f812b23 takes).
Ratios are old time over new time (> 1: faster now)."""
import collections, math

def load(path):
    rows = collections.defaultdict(dict)
    for line in open(path):
        f = line.split()
        if f[0] in ("old", "new"):
            who, f = f[0], f[1:]
        else:
            who = "new"
        m, n, prec = f[0].split("/")[-1].replace(".mtx.gz", ""), int(f[1][2:]), f[2]
        rows[(m, n, prec)][who] = dict(row=float(f[4]), transposed=float(f[7]), in_place=float(f[10]))
    return rows

rows = load("call3-colb3.txt")
rows4 = load("call4-colb4.txt")
gm = lambda x: math.exp(sum(map(math.log, x)) / len(x))
old_default = lambda r, n: r["in_place"] if n == 1 else r["transposed"]
new_default = lambda r, n: r["in_place"] if n <= 3 else r["transposed"]
mats = sorted({k[0] for k in rows}, key=lambda m: [k[0] for k in rows].index(m))

print("| matrix | col-major n=1 | n=2 | n=3 | n=4 | row-major n=1 | n=2 | n=3 | FP32 col-major n=2 | FP32 n=3 in place / transposed |")
print("|---|---|---|---|---|---|---|---|---|---|")
cols = collections.defaultdict(list)
for m in mats:
    cells = []
    for n in (1, 2, 3, 4):
        r = rows[(m, n, "tf32")]
        x = old_default(r["old"], n) / new_default(r["new"], n); cols["c%d" % n].append(x)
        cells.append("%.3f" % x)
    for n in (1, 2, 3):
        r = rows[(m, n, "tf32")]
        x = r["old"]["row"] / r["new"]["row"]; cols["r%d" % n].append(x)
        cells.append("%.3f" % x)
    r = rows[(m, 2, "fp32")]
    x = old_default(r["old"], 2) / new_default(r["new"], 2); cols["f2"].append(x); cells.append("%.3f" % x)
    r = rows4[(m, 3, "fp32")]["new"]
    x = r["in_place"] / r["transposed"]; cols["f3"].append(x); cells.append("%.3f" % x)
    print("| %s | %s |" % (m, " | ".join(cells)))
print("| geomean | %s |" % " | ".join("%.3f" % gm(cols[k]) for k in ("c1", "c2", "c3", "c4", "r1", "r2", "r3", "f2", "f3")))
