#!/usr/bin/env python3
"""Converts an MBTiles file into a PMTiles v3 archive (Python standard library only).

usage: tools/mbtiles-to-pmtiles.py INPUT.mbtiles OUTPUT.pmtiles [--leaf-size N]

Tiles are written in Hilbert tile-id order (clustered), identical tiles are stored once, runs of
consecutive ids with the same content become one directory entry, and directories and metadata
are gzip-compressed. When the root directory would not fit in the first 16 KiB, entries move to
leaf directories; --leaf-size forces leaves of at most N entries (for tests of leaf lookups).
The output is deterministic: the same input gives the same bytes.
"""
import argparse
import gzip
import hashlib
import json
import sqlite3
import struct
import sys

HEADER_SIZE = 127
ROOT_LIMIT = 16384 - HEADER_SIZE


def tile_id(z, x, y):
    """The Hilbert tile id of z/x/y (XYZ, y down)."""
    acc = ((1 << (2 * z)) - 1) // 3
    n = 1 << z
    d = 0
    s = n >> 1
    while s > 0:
        rx = 1 if x & s else 0
        ry = 1 if y & s else 0
        d += s * s * ((3 * rx) ^ ry)
        if ry == 0:
            if rx == 1:
                x, y = n - 1 - x, n - 1 - y
            x, y = y, x
        s >>= 1
    return acc + d


def varint(out, value):
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def encode_directory(entries):
    """entries: (tile_id, offset, length, run_length) sorted by id; gzip-compressed bytes."""
    out = bytearray()
    varint(out, len(entries))
    last = 0
    for e in entries:
        varint(out, e[0] - last)
        last = e[0]
    for e in entries:
        varint(out, e[3])
    for e in entries:
        varint(out, e[2])
    for i, e in enumerate(entries):
        if i > 0 and e[1] == entries[i - 1][1] + entries[i - 1][2]:
            varint(out, 0)
        else:
            varint(out, e[1] + 1)
    return gzip.compress(bytes(out), compresslevel=9, mtime=0)


def build_directories(entries, leaf_size):
    """(root bytes, leaf directories bytes)."""
    if leaf_size is None:
        root = encode_directory(entries)
        if len(root) <= ROOT_LIMIT:
            return root, b""
        leaf_size = 4096
    while True:
        leaves = bytearray()
        root_entries = []
        for start in range(0, len(entries), leaf_size):
            chunk = entries[start:start + leaf_size]
            data = encode_directory(chunk)
            root_entries.append((chunk[0][0], len(leaves), len(data), 0))
            leaves += data
        root = encode_directory(root_entries)
        if len(root) <= ROOT_LIMIT:
            return root, bytes(leaves)
        leaf_size *= 2


def degrees(value):
    return int(round(float(value) * 10_000_000))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--leaf-size", type=int, default=None, help="force leaf directories of at most N entries")
    args = parser.parse_args()
    if args.leaf_size is not None and args.leaf_size < 1:
        parser.error("--leaf-size must be at least 1")

    db = sqlite3.connect(f"file:{args.input}?mode=ro", uri=True)
    metadata = {name: value for name, value in db.execute("SELECT name, value FROM metadata")}
    rows = []
    for z, x, tms_y, data in db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"):
        y = (1 << z) - 1 - tms_y
        rows.append((tile_id(z, x, y), z, bytes(data)))
    db.close()
    if not rows:
        sys.exit(f"{args.input} has no tiles")
    rows.sort(key=lambda r: r[0])

    tile_data = bytearray()
    offsets = {}
    entries = []  # [tile_id, offset, length, run_length]
    for tid, _, data in rows:
        digest = hashlib.sha256(data).digest()
        if digest not in offsets:
            offsets[digest] = len(tile_data)
            tile_data += data
        offset = offsets[digest]
        last = entries[-1] if entries else None
        if last and last[0] + last[3] == tid and last[1] == offset:
            last[3] += 1
        else:
            entries.append([tid, offset, len(data), 1])
    entries = [tuple(e) for e in entries]
    root, leaves = build_directories(entries, args.leaf_size)

    meta = {k: v for k, v in metadata.items() if k != "json"}
    if "json" in metadata:
        try:
            meta.update(json.loads(metadata["json"]))
        except ValueError:
            pass
    meta_bytes = gzip.compress(json.dumps(meta, sort_keys=True).encode("utf-8"), compresslevel=9, mtime=0)

    fmt = metadata.get("format", "pbf").lower()
    tile_type = {"pbf": 1, "mvt": 1, "png": 2, "jpg": 3, "jpeg": 3, "webp": 4, "avif": 5}.get(fmt, 0)
    tile_compression = 2 if rows[0][2][:2] == b"\x1f\x8b" else 1
    zooms = [r[1] for r in rows]
    bounds = [-180.0, -85.0511287, 180.0, 85.0511287]
    if "bounds" in metadata:
        bounds = [float(v) for v in metadata["bounds"].split(",")]
    center = [(bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2, min(zooms)]
    if "center" in metadata:
        parts = [float(v) for v in metadata["center"].split(",")]
        center = parts + center[len(parts):]

    root_offset = HEADER_SIZE
    meta_offset = root_offset + len(root)
    leaves_offset = meta_offset + len(meta_bytes)
    data_offset = leaves_offset + len(leaves)
    header = b"PMTiles" + struct.pack(
        "<BQQQQQQQQQQQBBBBBBiiiiBii",
        3, root_offset, len(root), meta_offset, len(meta_bytes), leaves_offset, len(leaves),
        data_offset, len(tile_data), len(rows), len(entries), len(offsets),
        1, 2, tile_compression, tile_type, min(zooms), max(zooms),
        degrees(bounds[0]), degrees(bounds[1]), degrees(bounds[2]), degrees(bounds[3]),
        int(center[2]), degrees(center[0]), degrees(center[1]))
    assert len(header) == HEADER_SIZE
    with open(args.output, "wb") as out:
        out.write(header)
        out.write(root)
        out.write(meta_bytes)
        out.write(leaves)
        out.write(tile_data)
    print(f"{args.output}: {len(rows)} tiles, {len(entries)} entries, {len(offsets)} contents, "
          f"{'leaf directories' if leaves else 'root directory only'}")


if __name__ == "__main__":
    main()
