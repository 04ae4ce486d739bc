# ncu_table.py: the twelve fastest kernels of each Nsight Compute CSV given
# (ncu --csv --print-units base, the metrics of call1's run.sh), medians of
# their launches: duration, SM clock, shared-memory wavefronts and L2 sectors
# as % of peak, instructions, grid, registers, DRAM bytes read.
#   python3 ncu_table.py call1-profile-7fedc11/ncu-fp16-*.csv   (after gunzip)
import csv,collections,glob,re,sys
for f in sys.argv[1:]:
    rows=[r for r in csv.reader(open(f)) if len(r)>10]
    hdr=rows[0]; idx={h:i for i,h in enumerate(hdr)}
    kern=collections.OrderedDict()
    for r in rows[1:]:
        try: kid=int(r[idx['ID']])
        except: continue
        kern.setdefault(kid,{'name':r[idx['Kernel Name']]})[r[idx['Metric Name']]]=r[idx['Metric Value']]
    byname=collections.defaultdict(list)
    for k,v in kern.items(): byname[v['name']].append(v)
    print('==',f)
    out=[]
    for n,l in byname.items():
        m=re.search(r'tilesize(\w+?)_cgasize(\w+?)_warpgroupsize(\w+?)_(\w+?)_kernel',n)
        short=('Lt '+'/'.join(m.groups())) if m else n.split('(')[0].replace('void ','')
        g=lambda k: float(l[-1][k].replace(',','')) if l[-1].get(k,'n/a') not in ('n/a','') else float('nan')
        durs=sorted(float(v['gpu__time_duration.sum'].replace(',','')) for v in l)
        out.append((durs[len(durs)//2]/1e3, short[:75], len(l), g('sm__cycles_elapsed.avg.per_second')/1e9,
            g('l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.pct_of_peak_sustained_elapsed'),
            g('lts__t_sectors.sum.pct_of_peak_sustained_elapsed'), g('smsp__inst_executed.sum')/1e6, g('launch__grid_size'), g('launch__registers_per_thread'),g('dram__bytes_read.sum')/1e6))
    out.sort()
    for o in out[:12]:
        print('%8.1f us  %-75s n=%2d  %.2fGHz smem %5.1f%% L2 %5.1f%% inst %7.1fM grid %4d regs %3d dram %6.0fMB'%o)
