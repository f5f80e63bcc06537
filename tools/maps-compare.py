#!/usr/bin/env python3
"""Renders every ../shared/maps case with .build/debug/glsnap and prints pixelmatch's mismatched
fraction (threshold 0.1, anti-aliased pixels counted) per case, plus the mean and max.
A stopgap until glsnap-conformance lands. usage: tools/maps-compare.py [FILTER] [OUTDIR]"""
import json, os, subprocess, sys
import numpy as np
from PIL import Image

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
shared = os.path.join(os.path.dirname(root), "shared")
flt = sys.argv[1] if len(sys.argv) > 1 else ""
out = sys.argv[2] if len(sys.argv) > 2 else "/tmp/maps-out"
os.makedirs(out, exist_ok=True)

def yiq_delta(a, b):
    a = a.astype(np.float64); b = b.astype(np.float64)
    def blend(c):
        al = c[..., 3:4] / 255.0
        return 255 + (c[..., :3] - 255) * al
    a, b = blend(a), blend(b)
    y = lambda c: c[..., 0] * 0.29889531 + c[..., 1] * 0.58662247 + c[..., 2] * 0.11448223
    i = lambda c: c[..., 0] * 0.59597799 - c[..., 1] * 0.27417610 - c[..., 2] * 0.32180189
    q = lambda c: c[..., 0] * 0.21147017 - c[..., 1] * 0.52261711 + c[..., 2] * 0.31114694
    dy, di, dq = y(a) - y(b), i(a) - i(b), q(a) - q(b)
    return 0.5053 * dy * dy + 0.299 * di * di + 0.1957 * dq * dq

figs = []
for case in sorted(os.listdir(os.path.join(shared, "maps"))):
    if flt not in case: continue
    d = os.path.join(shared, "maps", case)
    c = json.load(open(os.path.join(d, "case.json")))
    png = os.path.join(out, case + ".png")
    cmd = [os.path.join(root, ".build/debug/glsnap"), "render", "--style", os.path.join(shared, c["style"]),
           "--center", "%r,%r" % tuple(c["center"]), "--zoom", str(c["zoom"]), "--bearing", str(c.get("bearing", 0)),
           "--pitch", str(c.get("pitch", 0)), "--size", "%dx%d" % (c["width"], c["height"]),
           "--ratio", str(c.get("pixelRatio", 1)), "-o", png]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        print(case, "FAILED", r.stderr.strip()[:200]); continue
    a = np.array(Image.open(png).convert("RGBA")); b = np.array(Image.open(os.path.join(d, "expected.png")).convert("RGBA"))
    if a.shape != b.shape:
        print(case, "size", a.shape, b.shape); continue
    frac = float((yiq_delta(a, b) > 35215 * 0.1 * 0.1).mean())
    figs.append(frac)
    print("%-40s %.4f" % (case, frac))
if figs:
    print("mean %.4f max %.4f over %d cases" % (sum(figs) / len(figs), max(figs), len(figs)))
