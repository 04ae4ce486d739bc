# lt_normalized.py NAME=DIR[,DIR...] ...: for each card NAME, the sp24_bench
# tables DIR/*-r<round>-<type>-mode<m>.md of bf16 and fp16, and per
# (type, M, N) the mean over rounds of time(cuSPARSELt) / time(ours) in
# mode 2 (128 x 256 wherever 256 x 128 single tiles ran) over the same in
# mode 0 (before d8e1738), sorted by M x N x K (M = K). cuSPARSELt, timed in
# the same process, takes out the clock differences between processes.
import sys,glob,re,collections,math
def load(dirs):
    d=collections.defaultdict(lambda: collections.defaultdict(list))
    for D in dirs:
        for f in glob.glob(D+'/*-r[0-9]*-mode*.md'):
            mode=re.search(r'mode(\w+)\.md',f).group(1)
            for line in open(f):
                c=[x.strip() for x in line.split('|')]
                if len(c)<12 or c[1] not in ('bf16','fp16'): continue
                num=lambda s: float(s.split()[0])
                d[(c[1],int(c[2]),int(c[3]))][mode].append(num(c[8])/num(c[4]))
    return d
for arg in sys.argv[1:]:
    name,dirs=arg.split('=',1); dirs=dirs.split(',')
    d=load(dirs)
    print('==',name, 'vsLt(mode2)/vsLt(mode0), by M*N*K')
    rows=[]
    for k,v in d.items():
        if '0' in v and '2' in v:
            r=(sum(v['2'])/len(v['2']))/(sum(v['0'])/len(v['0']))
            rows.append((k[1]*k[1]*k[2],k,r))
    for mnk,k,r in sorted(rows):
        print('  2^%.1f  M*N 2^%.1f %s %.3f'%(math.log2(mnk),math.log2(k[1]*k[2]),k,r))
