# ab_summary.py DIR: the sp24_bench tables DIR/*-r<round>-<type>-mode<m>.md
# side by side per (type, M, N): ours (16-bit B; tf32: fp32 B) in ms per
# round, time(cuSPARSELt) / time(ours), time(cuBLAS) / time(ours), and the
# ratio of ours' mean times, first mode over last (> 1: the last is faster).
import sys,glob,re,collections
# rows: prec, M, N -> mode -> list of (ours ms, Lt ms, cuBLAS ms)
d=collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(sys.argv[1]+'/*-r[0-9]*-mode*.md')):
    mode=re.search(r'mode(\w+)\.md',f).group(1)
    for line in open(f):
        c=[x.strip() for x in line.split('|')]
        if len(c)<12 or c[1] not in ('bf16','fp16','tf32'): continue
        num=lambda s: float(s.split()[0])
        ours = num(c[4]) if c[1]!='tf32' else num(c[6])
        d[(c[1],int(c[2]),int(c[3]))][mode].append((ours, num(c[8]), num(c[9])))
modes=sorted({m for v in d.values() for m in v})
print('prec M N | ' + ' | '.join('mode %s: ours ms, vs Lt, vs cuBLAS'%m for m in modes) + ' | time ratio mode0/mode'+modes[-1])
import math
g=[]
for k in sorted(d):
    row=[]
    for m in modes:
        l=d[k][m]
        row.append('%s %s %s'%(' '.join('%.4f'%x[0] for x in l), '/'.join('%.2f'%(x[1]/x[0]) for x in l), '/'.join('%.2f'%(x[2]/x[0]) for x in l)))
    a=[x[0] for x in d[k][modes[0]]]; b=[x[0] for x in d[k][modes[-1]]]
    r=(sum(a)/len(a))/(sum(b)/len(b)); g.append(math.log(r))
    print(k, ' | '.join(row), '| %.3f'%r)
print('geomean', math.exp(sum(g)/len(g)))
