#!/usr/bin/env python3
"""Writes the raster data of the render references (tiles/ and images/), deterministic and small:
a raster tile (0/0/0), two DEM tiles (6/32/31) of one hill (terrarium and mapbox encodings) and a picture for the
image source. Run from anywhere; the files are committed, so this is only needed to change them."""
import math, os, struct, zlib

HERE = os.path.dirname(os.path.abspath(__file__))

def png(path, width, height, pixel):
    """An 8-bit RGB PNG; pixel(x, y) -> (r, g, b)."""
    rows = b"".join(b"\0" + bytes(c for x in range(width) for c in pixel(x, y)) for y in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    out += chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(out)

def raster(x, y):
    # Four colour quadrants with a diagonal band, so hue, saturation and contrast changes all show.
    r = 200 if x < 128 else 40
    g = 180 if y < 128 else 60
    b = 220 if abs(x - y) < 24 else 90
    return (r, g, b)

def height(x, y):
    # One round hill of 12 km on a 100 m plain, centred on the tile, with a ridge to the east: steep
    # enough to shade at zoom 5 (the references view the middle half of this zoom-6 tile).
    d = math.hypot(x - 128, y - 128) / 40.0
    ridge = 4000 * math.exp(-((y - 128) / 12.0) ** 2 - ((x - 178) / 40.0) ** 2)
    return 100 + 12000 * math.exp(-d * d) + ridge

def terrarium(x, y):
    # Whole metres (the fraction byte 0) keep the file small.
    v = int(round(height(x, y))) + 32768
    return (v // 256, v % 256, 0)

def mapbox(x, y):
    v = (int(round(height(x, y))) + 10000) * 10
    return ((v >> 16) & 255, (v >> 8) & 255, v & 255)

def picture(x, y):
    # A 64x64 picture: a red disc on a yellow-to-blue ramp.
    if math.hypot(x - 32, y - 32) < 18:
        return (220, 30, 30)
    return (255 - 4 * x, 220 - 2 * y, 4 * x)

png(f"{HERE}/tiles/raster/0-0-0.png", 256, 256, raster)
png(f"{HERE}/tiles/terrarium/6-32-31.png", 256, 256, terrarium)
png(f"{HERE}/tiles/mapbox/6-32-31.png", 256, 256, mapbox)
png(f"{HERE}/images/picture.png", 64, 64, picture)
