# ab_pairs16.py DIR: DIR/bench-r<round>-<type>-mode<m>.md (sp24_bench tables),
# per (type, M = K, N): mean time of ours (16-bit B) per mode over rounds,
# time(cuSPARSELt)/time(ours) per round, the ratio of mean times
# mode 0 / mode 1 (> 1: pairs faster), and of mean cuSPARSELt ratios 1 / 0.
import sys,glob,re,collections
d=collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(sys.argv[1]+'/bench-r*-*-mode*.md')):
    mode=re.search(r'mode(\w+)\.md',f).group(1)
    for line in open(f):
        c=[x.strip() for x in line.split('|')]
        if len(c)<14 or c[1] not in ('bf16','fp16'): continue
        n=lambda s: float(s.split()[0])
        d[(c[1],int(c[2]),int(c[3]))][mode].append((n(c[4]),n(c[8])/n(c[4])))
m=lambda L,i: sum(x[i] for x in L)/len(L)
for k in sorted(d):
    v=d[k]
    print(k,' '.join('mode%s %.4f ms, vs Lt %s'%(mo,m(v[mo],0),'/'.join('%.2f'%x[1] for x in v[mo])) for mo in sorted(v)),
          '| time 0/1 %.3f, Lt-norm 1/0 %.3f'%(m(v['0'],0)/m(v['1'],0), m(v['1'],1)/m(v['0'],1)))
