# scratch: per kernel name in an ncu --csv log: launches, median and min gpu__time_duration
import csv, sys, statistics as st
lines = [l for l in open(sys.argv[1]) if l.startswith('"')]
by = {}
for r in csv.DictReader(lines):
    if r.get('Metric Name') != 'gpu__time_duration.sum': continue
    v = float(r['Metric Value'].replace(',', ''))
    if r.get('Metric Unit') in ('nsecond', 'ns'): v /= 1e3
    elif r.get('Metric Unit') in ('msecond', 'ms'): v *= 1e3
    by.setdefault(r['Kernel Name'], []).append(v)
for n, v in by.items():
    print(f"{len(v):4d}  med {st.median(v):8.2f} us  min {min(v):8.2f}  {n[:160]}")
