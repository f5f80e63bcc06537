#!/usr/bin/env python3
"""Compares the pixel digests of two glsnap-conformance reports (--report FILE.json).

usage: tools/same-pixels.py BEFORE.json AFTER.json

Prints each case whose drawn image changed (or that drew in one run only) and a summary line;
exits 1 when any changed. A refactoring that must keep images byte-identical runs a suite before
and after with --report and checks the two reports with this."""
import json
import sys


def digests(path):
    with open(path) as f:
        report = json.load(f)
    return {c["id"]: c.get("digest") for c in report["cases"]}


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    before, after = digests(sys.argv[1]), digests(sys.argv[2])
    changed = []
    for case in sorted(set(before) | set(after)):
        a, b = before.get(case), after.get(case)
        if a != b:
            changed.append(case)
            print(f"changed: {case} ({a} -> {b})")
    compared = sum(1 for c in before if c in after and before[c] is not None)
    print(f"{compared} cases compared, {len(changed)} changed")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
