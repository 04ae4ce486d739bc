# stalls.py: warp-stall samples of one Nsight Compute source-page export (ncu --import R
# --page source --csv --print-source sass): the totals by reason and the 30 instructions with
# the most samples. Used on call4.tgz's fp16-*-sass.csv.
#   python3 stalls.py fp16-4096-512-sass.csv
import csv, sys, collections
rows = list(csv.reader(open(sys.argv[1])))
hdr = rows[1]; data = rows[2:]
ix = {h: i for i, h in enumerate(hdr)}
def num(s):
    try: return float(s.replace(',', ''))
    except: return 0.0
stall_cols = [h for h in hdr if h.startswith('stall_') and 'Not Issued' not in h]
tot = collections.Counter()
total = 0
for r in data:
    if len(r) < len(hdr): continue
    total += num(r[ix['Warp Stall Sampling (All Samples)']])
    for h in stall_cols: tot[h] += num(r[ix[h]])
print('total samples', total)
for h, v in tot.most_common(12): print(f'{h:28s} {v:8.0f} {100*v/total:5.1f}%')
print('--- top instructions')
top = sorted(data, key=lambda r: -num(r[ix['Warp Stall Sampling (All Samples)']]) if len(r)>=len(hdr) else 0)[:30]
for r in top:
    s = num(r[ix['Warp Stall Sampling (All Samples)']])
    reasons = sorted(((num(r[ix[h]]), h[6:]) for h in stall_cols), reverse=True)[:3]
    print(f"{r[0][-5:]} {s:7.0f} {100*s/total:5.1f}% {r[1].strip()[:60]:60s} {' '.join(f'{n}:{v:.0f}' for v,n in reasons if v)}")
