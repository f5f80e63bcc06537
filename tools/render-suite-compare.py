#!/usr/bin/env python3
"""Stopgap render-suite check until glsnap-conformance lands: for each case under
../shared/integration/render/tests/<category>/<case>/ whose category matches FILTER (a prefix list,
comma-separated), rewrites local:// URLs to absolute paths, renders with .build/debug/glsnap at the
style's camera, and compares with the best expected*.png (YIQ threshold 0.13; anti-aliased pixels
are counted, so this is stricter than the suite). Cases with operations are skipped.
usage: tools/render-suite-compare.py text-,icon-,symbol- [OUTDIR]"""
import glob, json, os, subprocess, sys, tempfile
import numpy as np
from PIL import Image

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
suite = os.path.join(os.path.dirname(root), "shared", "integration")
prefixes = (sys.argv[1] if len(sys.argv) > 1 else "text-").split(",")
out = sys.argv[2] if len(sys.argv) > 2 else "/tmp/suite-out"
os.makedirs(out, exist_ok=True)

def rewrite(j):
    if isinstance(j, str) and j.startswith("local://"):
        return os.path.join(suite, j[len("local://"):].split("?")[0] if "{" not in j else j[len("local://"):])
    if isinstance(j, list): return [rewrite(x) for x in j]
    if isinstance(j, dict): return {k: rewrite(v) for k, v in j.items()}
    return j

def delta(a, b):
    a = a.astype(np.float64); b = b.astype(np.float64)
    bl = lambda c: 255 + (c[..., :3] - 255) * (c[..., 3:4] / 255.0)
    a, b = bl(a), bl(b)
    y = lambda c: c[..., 0] * 0.29889531 + c[..., 1] * 0.58662247 + c[..., 2] * 0.11448223
    i = lambda c: c[..., 0] * 0.59597799 - c[..., 1] * 0.27417610 - c[..., 2] * 0.32180189
    q = lambda c: c[..., 0] * 0.21147017 - c[..., 1] * 0.52261711 + c[..., 2] * 0.31114694
    dy, di, dq = y(a) - y(b), i(a) - i(b), q(a) - q(b)
    return 0.5053 * dy * dy + 0.299 * di * di + 0.1957 * dq * dq

per = {}
for cat in sorted(os.listdir(os.path.join(suite, "render/tests"))):
    if not any(cat.startswith(p) for p in prefixes): continue
    for case in sorted(os.listdir(os.path.join(suite, "render/tests", cat))):
        d = os.path.join(suite, "render/tests", cat, case)
        if not os.path.exists(os.path.join(d, "style.json")): continue
        style = json.load(open(os.path.join(d, "style.json")))
        test = style.get("metadata", {}).get("test", {})
        stats = per.setdefault(cat, [0, 0, 0])
        if test.get("operations") or test.get("collisionDebug"):
            stats[2] += 1; continue
        style = rewrite(style)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, dir="/tmp") as f:
            json.dump(style, f); path = f.name
        png = os.path.join(out, "%s__%s.png" % (cat, case))
        w, h, r = test.get("width", 512), test.get("height", 512), test.get("pixelRatio", 1)
        cmd = [os.path.join(root, ".build/debug/glsnap"), "render", "--style", path, "--size", "%dx%d" % (w, h), "--ratio", str(r), "-o", png]
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        os.unlink(path)
        ok = False
        if res.returncode == 0:
            a = np.array(Image.open(png).convert("RGBA"))
            allowed = test.get("allowed", 0.00015)
            for e in glob.glob(os.path.join(d, "expected*.png")):
                b = np.array(Image.open(e).convert("RGBA"))
                if a.shape == b.shape and float((delta(a, b) > 35215 * 0.13 * 0.13).mean()) <= allowed: ok = True
        stats[0 if ok else 1] += 1
        print("%s/%s %s" % (cat, case, "pass" if ok else ("FAIL" if res.returncode == 0 else "ERROR " + res.stderr.strip()[:120])))
tp = sum(s[0] for s in per.values()); tf = sum(s[1] for s in per.values()); ts = sum(s[2] for s in per.values())
for c, s in per.items(): print("%-32s %d/%d (skipped %d)" % (c, s[0], s[0] + s[1], s[2]))
print("total %d/%d passed, %d skipped" % (tp, tp + tf, ts))
