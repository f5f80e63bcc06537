#!/usr/bin/env bash
# Fetches MapLibre GL JS 5.3.0 (BSD-3-Clause) for `glsnap serve --maplibre FOLDER` and the viewer
# test: npm is not needed, the PyPI package `maplibre` 0.3.6 ships the built library in
# maplibre/srcjs. The wheel is checked against its SHA-256; the two files land in .build/maplibre-js.
# Prints that folder. Safe to run again (nothing is fetched once the files are there).
# usage: tools/maplibre-js.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/maplibre-js
wheel=maplibre-0.3.6-py3-none-any.whl
sha=eeafab617d4a1b71c0c174c71405f67c4b4e494fe1b27968d4d2359bc160e277
if [ ! -s "$out/maplibre-gl.js" ] || [ ! -s "$out/maplibre-gl.css" ]; then
  mkdir -p "$out/download"
  if [ ! -s "$out/download/$wheel" ]; then
    # Debian's python3 has no pip without python3-pip; a venv (python3-venv, in install-deps.sh) has.
    [ -x "$out/venv/bin/pip" ] || python3 -m venv "$out/venv" >&2
    "$out/venv/bin/pip" download -q --disable-pip-version-check --no-deps --only-binary=:all: maplibre==0.3.6 -d "$out/download" >&2
  fi
  echo "$sha  $out/download/$wheel" | sha256sum -c --quiet - >&2
  python3 - "$out/download/$wheel" "$out" <<'PY'
import sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    for name in ("maplibre-gl.js", "maplibre-gl.css"):
        with open(f"{out}/{name}", "wb") as f:
            f.write(z.read(f"maplibre/srcjs/{name}"))
PY
fi
echo "$PWD/$out"
