#!/bin/sh
# Tiles per second of `glsnap tiles` with single tiles and with 4 x 4 metatiles, in one run of
# this script (same machine, same pyramid, one after the other), and their ratio.
#
#   tools/tiles-bench.sh [GLSNAP] [STYLE]
#
# GLSNAP defaults to .build/release/glsnap, STYLE to ../shared/fixtures/styles/bright-v9-chicago.json.
# The pyramid: zooms 14-15 over central Chicago (96 tiles of 512 px). A benchmark, not a test.
set -eu
glsnap=${1:-.build/release/glsnap}
style=${2:-../shared/fixtures/styles/bright-v9-chicago.json}
bounds=${BOUNDS:--87.70,41.85,-87.60,41.91}
zooms=${ZOOMS:-14 15}
set -- $zooms
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rate() {
    # "wrote OUT (N tiles rendered, 0 kept, S s, R tiles/s)": R
    "$glsnap" tiles --quiet --style "$style" --bounds="$bounds" --minzoom "$1" --maxzoom "$2" --metatile "$3" \
        -o "$work/m$3.mbtiles" | sed -n 's/.*, \([0-9.]*\) tiles\/s)$/\1/p'
}
single=$(rate "$1" "$2" 1)
meta=$(rate "$1" "$2" 4)
echo "single tiles: $single tiles/s"
echo "4x4 metatiles: $meta tiles/s"
awk -v a="$single" -v b="$meta" 'BEGIN { printf "ratio: %.2f\n", b / a }'
