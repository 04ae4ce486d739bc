"""Writes the timing-only variants of src/kernels/hrpb_tf32.cu (wrong answers
by design) under .devdata/parts/<name>/src/kernels/: each removes one part of
the four-warp main loop, so that its time says what that part costs.
  gather: B rows and packed blocks copied, waits and barriers; no decode, no MMAs
  nob:    everything but the B-row copies (the MMAs read stale stages)
  nodec:  everything but the decode (every brick column marked present)
"""
import os, sys

src = open('src/kernels/hrpb_tf32.cu').read()
mma_start = '            if (warp_active) {\n                unsigned long long f[COLS][H][BR];'
decode_loop = '''            if constexpr (!REG_DECODE)
                if (it + 1 < nblk) decode_to_smem(s1, sm.d[(it + 1) & 1]);'''
decode_prologue = '            if (nblk > 0) decode_to_smem(0, sm.d[0]);'
present = '                    present = *reinterpret_cast<const unsigned *>(sm.d[it & 1].present);'
issue_b = '''            if (b_blk < nblk) {
                issue_b(cols, b_stage);'''
for s in (mma_start, decode_loop, decode_prologue, present, issue_b):
    assert src.count(s) == 1, s

variants = {
    'gather': [(mma_start, mma_start.replace('if (warp_active)', 'if (REG_DECODE && warp_active)')),
               (decode_loop, ''), (decode_prologue, '')],
    'nob': [(issue_b, issue_b.replace('issue_b(cols, b_stage);', '/* no B rows */'))],
    'nodec': [(decode_loop, ''), (decode_prologue, ''),
              (present, '                    present = 0x01010101u;')],
}
for name, edits in variants.items():
    s = src
    for old, new in edits:
        s = s.replace(old, new)
    d = f'.devdata/parts/{name}/src/kernels'
    os.makedirs(d, exist_ok=True)
    open(f'{d}/hrpb_tf32.cu', 'w').write(s)
    print(name, 'written')
