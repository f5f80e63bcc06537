#!/usr/bin/env bash
# Installs glsnap's C ABI: PREFIX/lib/libglsnap.so, PREFIX/include/glsnap.h and
# PREFIX/lib/pkgconfig/glsnap.pc, so that `pkg-config --cflags --libs glsnap` works with
# PKG_CONFIG_PATH=PREFIX/lib/pkgconfig (or a PREFIX pkg-config already searches, e.g. /usr/local).
# Builds the library in release mode first (incremental when .build/release is there).
# usage: tools/install-c.sh PREFIX
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: tools/install-c.sh PREFIX" >&2; exit 2; }
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$1"
prefix="$(cd "$1" && pwd)"
(cd "$root" && swift build -c release --product GLSnapC)
lib="$root/.build/release/libGLSnapC.so"
version="$(sed -n 's/.*let s = Array("\([0-9.]*\)".*/\1/p' "$root/Sources/GLSnapC/CAPI.swift")"
install -d "$prefix/lib/pkgconfig" "$prefix/include"
# The file name is the link name: the library has no SONAME, so programs record libglsnap.so.
install -m 0755 "$lib" "$prefix/lib/libglsnap.so"
install -m 0644 "$root/include/glsnap.h" "$prefix/include/glsnap.h"
# The library finds the Swift runtime through its own RUNPATH (the toolchain's lib folder);
# programs find the library through the rpath below.
cat > "$prefix/lib/pkgconfig/glsnap.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: glsnap
Description: Headless MapLibre/Mapbox GL style renderer (C ABI)
Version: ${version:-0.1.0}
Cflags: -I\${includedir}
Libs: -L\${libdir} -lglsnap -Wl,-rpath,\${libdir}
PC
echo "installed glsnap $version to $prefix (pkg-config: PKG_CONFIG_PATH=$prefix/lib/pkgconfig)"
