"""sass_compare.py A.sass B.sass [regex]: for each function (whose name matches regex) of two
nvdisasm -c listings, whether its SASS is the same once addresses are dropped and branch labels
renumbered in order of appearance. Used by sass_compare.sh."""
import re, sys
def funcs(path):
    out, name = {}, None
    for line in open(path):
        m = re.match(r'\s*\.text\.(\S+):', line) or re.match(r'^(_Z\w+):', line)
        if m:
            name = m.group(1); out.setdefault(name, []); continue
        if name is None: continue
        code = re.sub(r'/\*[0-9a-f]{4,}\*/', '', line).strip()
        if not code or code.startswith('//') or code.startswith('.'):
            if code.startswith('.L_'): out[name].append(code)
            continue
        out[name].append(code)
    return out
def norm(lines):
    labels, res = {}, []
    for l in lines:
        for lab in re.findall(r'\.L_x_\d+', l):
            labels.setdefault(lab, f'L{len(labels)}')
        res.append(re.sub(r'\.L_x_\d+', lambda m: labels[m.group(0)], l))
    return res
a, b = funcs(sys.argv[1]), funcs(sys.argv[2])
pat = re.compile(sys.argv[3] if len(sys.argv) > 3 else '.')
same = diff = 0
for n in sorted(a):
    if not pat.search(n): continue
    if n not in b: print('only in A:', n); diff += 1; continue
    if norm(a[n]) == norm(b[n]): same += 1
    else:
        diff += 1; print('differs:', n, len(a[n]), len(b[n]))
for n in sorted(b):
    if pat.search(n) and n not in a: print('only in B:', n); diff += 1
print(f'{same} same, {diff} differ')
