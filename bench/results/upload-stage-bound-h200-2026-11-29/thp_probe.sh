#!/usr/bin/env bash
# probe: do first-plan outliers coincide with THP compaction stalls?
bin=$1; shift
free -m | head -2
grep -E "^(MemFree|Cached|AnonHugePages)" /proc/meminfo
for input in "$@"; do
 for r in 1 2 3 4 5 6; do
  before=$(grep -E "^(compact_stall|thp_fault_alloc|thp_fault_fallback) " /proc/vmstat | awk '{print $2}' | tr '\n' ' ')
  $bin $input --bench --reps 5 --json > /tmp/probe.json 2>/dev/null
  after=$(grep -E "^(compact_stall|thp_fault_alloc|thp_fault_fallback) " /proc/vmstat | awk '{print $2}' | tr '\n' ' ')
  python3 -c "
import json,sys;d=json.load(open('/tmp/probe.json'))
b=[int(x) for x in '$before'.split()];a=[int(x) for x in '$after'.split()]
print('$(basename $input)', $r, 'plan %.2f warm %.2f up %.2f pre %.2f read %.1f' % (d['plan_ms'],d['plan_ms_warm'],d['upload_ms'],d['preprocess_ms'],d['read_ms']), 'compact_stall/thp_alloc/thp_fallback +', [x-y for x,y in zip(a,b)])"
 done
done
