#!/usr/bin/env bash
# Installs the Debian packages glsnap builds and runs with (Debian 12). Safe to run again.
# usage: tools/install-deps.sh            (needs root, or sudo)
set -euo pipefail
packages=(
  libosmesa6-dev      # OSMesa: the default headless GL backend
  libegl-dev libegl-mesa0 libgl1-mesa-dri libgl-dev  # EGL (surfaceless on Mesa, device platform on a GPU); GL headers
  libpng-dev zlib1g-dev libsqlite3-dev
  libisal-dev         # Intel ISA-L igzip: fast deflate for PNG output at the throughput presets
  librsvg2-dev        # SVG icons (librsvg + cairo)
  libturbojpeg0-dev libwebp-dev  # raster tiles: JPEG (TurboJPEG API: errors as return codes, no longjmp) and WebP
  libmicrohttpd-dev   # glsnap serve's HTTP server
  libcurl4-openssl-dev  # styles, TileJSON, tiles, glyphs and sprites over http:// and https://
  wrk                 # HTTP load generator: benchmarking glsnap serve only, not needed by tests
  nginx               # tools/nginx-recipe.py: glsnap serve replicas behind nginx's cache (own prefix; the system service is unused)
  libfreetype-dev libfontconfig-dev fonts-dejavu-core  # labels from local fonts when glyph ranges are missing
  libfribidi-dev      # right-to-left labels: bidi reordering and Arabic joining (as MapLibre's RTL support)
  pkg-config python3
  python3-venv        # tools/test-python.sh: a venv for the Python package's tests
  chromium            # the viewer test: headless Chromium draws /styles/{id}/ and /data/{id}/ (tools/viewer-shot.py)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if ! command -v swift >/dev/null; then
  echo "glsnap needs the Swift toolchain (6.x) on PATH: see https://www.swift.org/install/linux/" >&2
  exit 1
fi
