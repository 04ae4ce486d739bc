# ab_mid.py DIR: DIR/bench-r<round>-<type>-mode<m>.md (sp24_bench tables),
# per (type, M = K, N): mean time of ours (16-bit B) per mode over rounds,
# time(cuSPARSELt)/time(ours) per round, and the ratios of mean times
# mode 0 / mode 8 and mode 0 / mode 6 (> 1: one k-tile a stage faster).
import sys,glob,re,collections
d=collections.defaultdict(lambda: collections.defaultdict(list))
for f in sorted(glob.glob(sys.argv[1]+'/bench-r*-*-mode*.md')):
    mode=re.search(r'mode(\w+)\.md',f).group(1)
    for line in open(f):
        c=[x.strip() for x in line.split('|')]
        if len(c)<14 or c[1] not in ('bf16','fp16','tf32'): continue
        n=lambda s: float(s.split()[0])
        col=4 if c[1]!='tf32' else 6
        d[(c[1],int(c[2]),int(c[3]))][mode].append((n(c[col]),n(c[8])/n(c[col])))
for k in sorted(d):
    v=d[k]; m=lambda L,i: sum(x[i] for x in L)/len(L)
    print(k,' '.join('m%s %.4f vsLt %s'%(mo,m(v[mo],0),'/'.join('%.2f'%x[1] for x in v[mo])) for mo in sorted(v)), ' | t0/t8 %.3f t0/t6 %.3f'%(m(v['0'],0)/m(v['8'],0), m(v['0'],0)/m(v['6'],0)) if '8' in v and '6' in v else '')
