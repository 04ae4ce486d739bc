#!/usr/bin/env python3
"""eigsh_reference.py: reference eigenvalues for the LOBPCG test, from
scipy.sparse.linalg.eigsh (ARPACK, float64) on the repository's bundled
symmetric matrices. The test reads the committed output (reference_eigsh.txt),
so CI needs no scipy. Regenerate with:

    python3 examples/lobpcg/eigsh_reference.py data > examples/lobpcg/reference_eigsh.txt

Output: '#' comment lines, then one line per eigenvalue:
    FILE largest|smallest INDEX VALUE
with INDEX from 1 (largest: descending; smallest: ascending).
"""
import os
import sys

import numpy as np
import scipy
import scipy.io
import scipy.sparse.linalg as sla

# (file, which end, how many): the k the test asks LOBPCG for.
CASES = [("ted_B.mtx.gz", "largest", 6), ("de2010.mtx.gz", "largest", 6)]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: eigsh_reference.py DATA_DIR")
    print("# eigsh_reference.py: scipy %s, numpy %s, scipy.sparse.linalg.eigsh in float64"
          % (scipy.__version__, np.__version__))
    print("# FILE largest|smallest INDEX VALUE")
    for name, end, k in CASES:
        A = scipy.io.mmread(os.path.join(sys.argv[1], name)).tocsr().astype(np.float64)
        if abs(A - A.T).max() != 0:
            sys.exit("%s is not symmetric" % name)
        w = sla.eigsh(A, k=k, which="LA" if end == "largest" else "SA", return_eigenvectors=False)
        w = np.sort(w)[::-1] if end == "largest" else np.sort(w)
        for i, v in enumerate(w):
            print("%s %s %d %.17g" % (name, end, i + 1, v))


if __name__ == "__main__":
    main()
