#!/usr/bin/env python3
"""Converts an MBTiles file of Mapbox Vector Tiles into one of MapLibre Tiles (MLT).

    tools/mbtiles-to-mlt.py in.mbtiles out.mbtiles

Test data for glsnap's MLT decoder (the PyPI package `maplibre-tiles` builds from Rust sources
and cannot be installed offline), written from maplibre/maplibre-tile-spec (specification.md,
encodings.md). Python standard library only. Each MVT layer becomes one tag-1 block with
embedded column metadata and these encodings, so that the decoder's main paths are exercised:

- id: a nullable 64-bit id column, delta + zigzag varints;
- geometry: RLE geometry types; Multi* types, polygons and lines with length streams by the
  spec's threshold rules; vertices as componentwise delta (zigzag varints);
- properties: booleans (byte RLE), 64-bit integers (zigzag varints), doubles (little-endian),
  strings (dictionary: lengths, UTF-8 bytes, varint offsets); every column nullable (a PRESENT
  stream of byte-RLE bits). A key of mixed types in one layer becomes a string column.
"""
import gzip
import sqlite3
import struct
import sys
import zlib


# ---- MVT reading (vector_tile.proto) ----

def read_varint(buf, pos):
    value = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if b < 0x80:
            return value, pos
        shift += 7


def fields(buf):
    pos = 0
    while pos < len(buf):
        key, pos = read_varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = read_varint(buf, pos)
        elif wire == 1:
            value, pos = buf[pos:pos + 8], pos + 8
        elif wire == 2:
            n, pos = read_varint(buf, pos)
            value, pos = buf[pos:pos + n], pos + n
        elif wire == 5:
            value, pos = buf[pos:pos + 4], pos + 4
        else:
            raise ValueError("wire type %d" % wire)
        yield number, wire, value


def packed(buf):
    out, pos = [], 0
    while pos < len(buf):
        v, pos = read_varint(buf, pos)
        out.append(v)
    return out


def unzigzag(v):
    return (v >> 1) ^ -(v & 1)


def mvt_value(buf):
    for number, _, v in fields(buf):
        if number == 1:
            return v.decode("utf-8", "replace")
        if number == 2:
            return struct.unpack("<f", v)[0]
        if number == 3:
            return struct.unpack("<d", v)[0]
        if number in (4, 5):
            return v if number == 5 else (v - (1 << 64) if v >= 1 << 63 else v)
        if number == 6:
            return unzigzag(v)
        if number == 7:
            return bool(v)
    return None


def mvt_geometry(commands, gtype):
    """Parts as lists of (x, y); polygon rings without their closing point."""
    parts, current, x, y, i = [], None, 0, 0, 0
    while i < len(commands):
        cmd, count = commands[i] & 7, commands[i] >> 3
        i += 1
        if cmd in (1, 2):
            for _ in range(count):
                x += unzigzag(commands[i])
                y += unzigzag(commands[i + 1])
                i += 2
                if cmd == 1:
                    if current:
                        parts.append(current)
                    current = [(x, y)]
                else:
                    current.append((x, y))
        # ClosePath (7): the ring is closed implicitly.
    if current:
        parts.append(current)
    if gtype == 1:
        return [[p] for part in parts for p in part]
    return parts


def ring_area(ring):
    return sum(ring[j][0] * ring[(j + 1) % len(ring)][1] - ring[(j + 1) % len(ring)][0] * ring[j][1]
               for j in range(len(ring)))


def read_mvt(data):
    layers = []
    for number, _, layer_buf in fields(data):
        if number != 3:
            continue
        name, extent, keys, values, features = None, 4096, [], [], []
        for n, _, v in fields(layer_buf):
            if n == 1:
                name = v.decode()
            elif n == 5:
                extent = v
            elif n == 3:
                keys.append(v.decode())
            elif n == 4:
                values.append(mvt_value(v))
            elif n == 2:
                features.append(v)
        decoded = []
        for fbuf in features:
            fid, tags, gtype, geom = None, [], 0, []
            for n, _, v in fields(fbuf):
                if n == 1:
                    fid = v
                elif n == 2:
                    tags = packed(v)
                elif n == 3:
                    gtype = v
                elif n == 4:
                    geom = packed(v)
            if gtype not in (1, 2, 3):
                continue
            props = {keys[tags[k]]: values[tags[k + 1]] for k in range(0, len(tags) - 1, 2)}
            decoded.append((fid, gtype, mvt_geometry(geom, gtype), props))
        layers.append((name, extent, decoded))
    return layers


# ---- MLT writing ----

def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def zigzag(v):
    return (v << 1) ^ (v >> 63) if v >= 0 else ((-v) << 1) - 1


def string(s):
    b = s.encode()
    return varint(len(b)) + b


PRESENT, DATA, OFFSET, LENGTH = 0, 1, 2, 3
NONE, DELTA, COMPONENTWISE_DELTA, RLE = 0, 1, 2, 3
PLAIN, VARINT = 0, 2


def stream(kind, subtype, body, count, t1=NONE, t2=NONE, physical=VARINT, rle=None):
    header = bytes([kind << 4 | subtype, t1 << 5 | t2 << 2 | physical]) + varint(count) + varint(len(body))
    if rle is not None:
        header += varint(rle[0]) + varint(rle[1])
    return header + body


def varints(values):
    return b"".join(varint(v) for v in values)


def byte_rle(data):
    """ORC byte RLE written as literal groups of at most 128 bytes."""
    out = bytearray()
    for i in range(0, len(data), 128):
        chunk = data[i:i + 128]
        out.append(256 - len(chunk))
        out += chunk
    return bytes(out)


def bits(flags):
    packed_bytes = bytearray((len(flags) + 7) // 8)
    for i, f in enumerate(flags):
        if f:
            packed_bytes[i >> 3] |= 1 << (i & 7)
    return byte_rle(bytes(packed_bytes))


def present_stream(flags):
    return stream(PRESENT, 0, bits(flags), len(flags), physical=PLAIN)


def geometry_column(features):
    types, shapes = [], []
    for _, gtype, parts, _ in features:
        if gtype == 1:
            types.append(0 if len(parts) == 1 else 3)
            shapes.append(parts)
        elif gtype == 2:
            types.append(1 if len(parts) == 1 else 4)
            shapes.append(parts)
        else:
            polygons, sign = [], None
            for ring in parts:
                area = ring_area(ring)
                if area == 0:
                    continue
                if sign is None:
                    sign = area > 0
                if (area > 0) == sign or not polygons:
                    polygons.append([ring])
                else:
                    polygons[-1].append(ring)
            types.append(2 if len(polygons) == 1 else 5)
            shapes.append(polygons)
    has_multi = any(t >= 3 for t in types)
    has_polygon = any(t in (2, 5) for t in types)
    has_line = any(t in (1, 4) for t in types)
    geometries, part_lengths, ring_lengths, vertices = [], [], [], []
    for t, shape in zip(types, shapes):
        subs = shape if t in (3, 4, 5) else shape[:1]  # a single geometry is its own only part
        if t >= 3:
            geometries.append(len(subs))
        for sub in subs:
            if t in (0, 3):
                vertices += sub
            elif t in (1, 4):
                (ring_lengths if has_polygon else part_lengths).append(len(sub))
                vertices += sub
            else:
                part_lengths.append(len(sub))
                for ring in sub:
                    ring_lengths.append(len(ring))
                    vertices += ring
    # Runs of equal types.
    runs, run_values = [], []
    for t in types:
        if run_values and run_values[-1] == t:
            runs[-1] += 1
        else:
            runs.append(1)
            run_values.append(t)
    streams = [stream(DATA, 0, varints(runs + run_values), 2 * len(runs), t1=RLE, rle=(len(runs), len(types)))]
    if has_multi:
        streams.append(stream(LENGTH, 1, varints(geometries), len(geometries)))
    if has_polygon or has_line:
        streams.append(stream(LENGTH, 2, varints(part_lengths), len(part_lengths)))
    if has_polygon:
        streams.append(stream(LENGTH, 3, varints(ring_lengths), len(ring_lengths)))
    deltas, px, py = [], 0, 0
    for x, y in vertices:
        deltas += [zigzag(x - px), zigzag(y - py)]
        px, py = x, y
    streams.append(stream(DATA, 3, varints(deltas), len(deltas), t1=COMPONENTWISE_DELTA))
    return varint(len(streams)) + b"".join(streams)


def column_kind(values):
    kinds = {type(v) for v in values if v is not None}
    if kinds == {bool}:
        return "bool"
    if kinds <= {int} and kinds:
        return "int" if all(-(1 << 63) <= v < (1 << 63) for v in values if v is not None) else "string"
    if kinds <= {int, float} and kinds:
        return "double"
    return "string"


def text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def property_column(name, values):
    """(metadata, data) of one nullable column."""
    kind = column_kind(values)
    flags = [v is not None for v in values]
    present = [v for v in values if v is not None]
    if kind == "bool":
        return bytes([11]) + string(name), present_stream(flags) + stream(DATA, 0, bits(present), len(present), physical=PLAIN)
    if kind == "int":
        body = varints(zigzag(v) for v in present)
        return bytes([21]) + string(name), present_stream(flags) + stream(DATA, 0, body, len(present))
    if kind == "double":
        body = b"".join(struct.pack("<d", float(v)) for v in present)
        return bytes([27]) + string(name), present_stream(flags) + stream(DATA, 0, body, len(present), physical=PLAIN)
    strings = [text(v) for v in present]
    table = sorted(set(strings))
    index = {s: i for i, s in enumerate(table)}
    encoded = [s.encode() for s in table]
    streams = [present_stream(flags),
               stream(LENGTH, 6, varints(len(b) for b in encoded), len(encoded)),
               stream(DATA, 1, b"".join(encoded), len(encoded), physical=PLAIN),
               stream(OFFSET, 2, varints(index[s] for s in strings), len(strings))]
    return bytes([29]) + string(name), varint(len(streams)) + b"".join(streams)


def encode_layer(name, extent, features):
    meta, data = [], []
    ids = [f[0] for f in features]
    if any(i is not None for i in ids):
        meta.append(bytes([3]))  # nullable 64-bit id
        flags = [i is not None for i in ids]
        present = [i for i in ids if i is not None]
        deltas, prev = [], 0
        for i in present:
            deltas.append(zigzag(i - prev))
            prev = i
        data.append(present_stream(flags) + stream(DATA, 0, varints(deltas), len(deltas), t1=DELTA))
    meta.append(bytes([4]))
    data.append(geometry_column(features))
    keys = []
    for f in features:
        for k in f[3]:
            if k not in keys:
                keys.append(k)
    for k in keys:
        m, d = property_column(k, [f[3].get(k) for f in features])
        meta.append(m)
        data.append(d)
    body = varint(1) + string(name) + varint(extent) + varint(len(meta)) + b"".join(meta) + b"".join(data)
    return varint(len(body)) + body


def convert_tile(blob):
    if blob[:2] == b"\x1f\x8b":
        blob = gzip.decompress(blob)
    elif blob[:1] == b"\x78":
        blob = zlib.decompress(blob)
    return b"".join(encode_layer(n, e, f) for n, e, f in read_mvt(blob) if f)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    src = sqlite3.connect(argv[1])
    dst = sqlite3.connect(argv[2])
    dst.execute("CREATE TABLE metadata (name TEXT, value TEXT)")
    dst.execute("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
    dst.executemany("INSERT INTO metadata VALUES (?, ?)",
                    [(n, "mlt" if n == "format" else v) for n, v in src.execute("SELECT name, value FROM metadata")])
    for z, x, y, blob in src.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"):
        dst.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (z, x, y, convert_tile(bytes(blob))))
    dst.commit()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
