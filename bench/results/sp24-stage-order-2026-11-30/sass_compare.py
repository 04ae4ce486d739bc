#!/usr/bin/env python3
"""sass_compare.py A.sass B.sass [--match REGEX] [--expect same|differ] [--count N]: for each
function (whose mangled name REGEX searches) of two nvdisasm -c listings, whether its SASS is
the same once addresses are dropped and branch labels renumbered in order of appearance.
Prints one line per function that is not as expected and a total; exits 1 unless every
compared function is as expected (default: same) and, with --count, exactly N were compared.
Used by sass_compare.sh."""
import argparse
import re
import sys

FUNC = re.compile(r"^\s*\.text\.(\S+):")
ADDR = re.compile(r"/\*[0-9a-f]{4,}\*/")
LABEL = re.compile(r"\.L_x_\d+")


def functions(path):
    """{name: [line]}: each function's instructions and labels, addresses dropped."""
    found, body = {}, None
    with open(path) as f:
        for line in f:
            m = FUNC.match(line)
            if m:
                body = found.setdefault(m.group(1), [])
                continue
            code = ADDR.sub("", line).strip()
            if body is None or not code or code.startswith("//"):
                continue
            if code.startswith(".") and not LABEL.match(code):
                continue  # section directives; labels stay, as do the branches to them
            body.append(code)
    return found


def renumbered(lines):
    """The lines with each label named by its order of first appearance."""
    names = {}
    return [LABEL.sub(lambda m: names.setdefault(m.group(0), "L%d" % len(names)), line)
            for line in lines]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--match", default=".")
    p.add_argument("--expect", choices=("same", "differ"), default="same")
    p.add_argument("--count", type=int)
    args = p.parse_args()
    a, b, pattern = functions(args.a), functions(args.b), re.compile(args.match)
    names = sorted(n for n in set(a) | set(b) if pattern.search(n))
    same = differ = 0
    for name in names:
        if name not in a or name not in b:
            print("only in %s: %s" % (args.a if name in a else args.b, name))
            differ += 1
            continue
        if renumbered(a[name]) == renumbered(b[name]):
            same += 1
        else:
            differ += 1
        if (renumbered(a[name]) == renumbered(b[name])) != (args.expect == "same"):
            print("not %s: %s" % (args.expect, name))
    print("%d same, %d differ" % (same, differ))
    expected = same if args.expect == "same" else differ
    ok = expected == len(names) > 0 and (args.count is None or len(names) == args.count)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
