#!/usr/bin/env python3
"""Stitches 2 x 2 tiles of a `glsnap tiles` folder and compares them with one render.

    tools/tiles-stitch-check.py FOLDER Z X0 Y0 RENDER.png

Tiles FOLDER/Z/X0..X0+1/Y0..Y0+1.png put side by side are compared pixel by pixel with RENDER.png
(the same area drawn by `glsnap render`); prints the share of pixels whose channels differ by
more than 8 of 255 (pixelmatch's threshold 0.1 is about that for map colors) and the exact-equal
share. Python standard library only (a small PNG reader for 8-bit RGBA, non-interlaced).
"""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    i, idat = 8, b""
    while i < len(data):
        n = struct.unpack(">I", data[i:i + 4])[0]
        kind, chunk = data[i + 4:i + 8], data[i + 8:i + 8 + n]
        if kind == b"IHDR":
            w, h, depth, color = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and color == 6, f"{path}: only 8-bit RGBA"
        elif kind == b"IDAT":
            idat += chunk
        i += 12 + n
    raw, stride, bpp = zlib.decompress(idat), w * 4, 4
    rows, prev, p = [], bytearray(stride), 0
    for _ in range(h):
        f, line = raw[p], bytearray(raw[p + 1:p + 1 + stride])
        p += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + ((a + b) >> 1)) & 255
            elif f == 4:
                q = a + b - c
                pa, pb, pc = abs(q - a), abs(q - b), abs(q - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, rows


def main():
    folder, z, x0, y0, render = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    w, h, whole = read_png(render)
    side = w // 2
    differ = exact = 0
    for ty in range(2):
        for tx in range(2):
            tw, th, tile = read_png(f"{folder}/{z}/{x0 + tx}/{y0 + ty}.png")
            assert tw == side and th == side
            for r in range(side):
                a = tile[r]
                b = whole[ty * side + r][tx * side * 4:(tx + 1) * side * 4]
                if a == b:
                    continue
                for i in range(0, side * 4, 4):
                    if a[i:i + 4] != b[i:i + 4]:
                        exact += 1
                        if max(abs(a[i + k] - b[i + k]) for k in range(4)) > 8:
                            differ += 1
    n = w * h
    print(f"corner {x0 + 1},{y0 + 1} z{z}: {differ / n:.7f} of the pixels differ (> 8/255), {exact / n:.7f} not exactly equal")


main()
