# ab_tf32.py DIR: DIR/bench-r<round>-tf32-{old,new}.md (sp24_bench tables),
# per (M = K, N): the mean time of ours (fp32 B) over rounds for old and new,
# time(cuSPARSELt)/time(ours) and time(cuBLAS)/time(ours) per round, the
# ratio of mean times old/new (> 1: new faster) and of mean cuSPARSELt
# ratios new/old (cuSPARSELt in the same process takes out clock drift).
import sys,glob,re,collections
d=collections.defaultdict(lambda: collections.defaultdict(list))
D=sys.argv[1]
for f in sorted(glob.glob(D+'/bench-r*-tf32-*.md')):
    v=re.search(r'-(\w+)\.md',f).group(1)
    for line in open(f):
        c=[x.strip() for x in line.split('|')]
        if len(c)<14 or c[1]!='tf32': continue
        n=lambda s: float(s.split()[0])
        d[(int(c[2]),int(c[3]))][v].append((n(c[6]),n(c[8])/n(c[6]),n(c[9])/n(c[6])))
for k in sorted(d):
    o,w=d[k]['old'],d[k]['new']
    m=lambda L,i: sum(x[i] for x in L)/len(L)
    print(k,'old %.4f vsLt %.2f vsBLAS %s | new %.4f vsLt %.2f vsBLAS %s | time old/new %.3f Lt-norm %.3f'%(
        m(o,0),m(o,1),'/'.join('%.3f'%x[2] for x in o),m(w,0),m(w,1),'/'.join('%.3f'%x[2] for x in w),m(o,0)/m(w,0),m(w,1)/m(o,1)))
