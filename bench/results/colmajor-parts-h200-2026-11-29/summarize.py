"""Old (8d708ac) over new column-major time, per matrix, leading dimension and N, from a
parts.txt of run4.sh or run5.sh: python3 summarize.py parts.txt"""
import collections, math, re, sys

d = collections.defaultdict(dict)
v = prec = None
for line in open(sys.argv[1]):
    m = re.match(r'(old|new)( (tf32|fp32))?', line)
    if m:
        v, prec = m.group(1), m.group(3) or 'tf32'
    m = re.search(r'(\S+)\s+ldc\+(\d) n=(\d+)\s+rm ([\d.]+)\s+cm ([\d.]+)', line)
    if m:
        d[(prec, int(m.group(3)), m.group(1).split('/')[-1].replace('.mtx.gz', ''), m.group(2))][v] = float(m.group(5))
by = collections.defaultdict(list)
for k in sorted(d):
    x = d[k]
    if 'old' in x and 'new' in x:
        r = x['old'] / x['new']
        by[k[:2]].append(r)
        print(f"{k[0]} n={k[1]:<4d} {k[2]:28s} ldc+{k[3]}  old {x['old']:.4f}  new {x['new']:.4f}  old/new {r:.3f}")
print()
for k, rs in sorted(by.items()):
    g = math.exp(sum(map(math.log, rs)) / len(rs))
    print(f"{k[0]} n={k[1]:<4d} geomean {g:.3f}  lowest {min(rs):.3f}  highest {max(rs):.3f}  ({len(rs)} rows)")
