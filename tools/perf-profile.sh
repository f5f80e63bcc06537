#!/usr/bin/env bash
# Where a `glsnap bench` run's CPU goes: perf record over the run, then the shares by library
# (the [JIT] entries are llvmpipe's compiled shaders: rasterizing and shading) and, within glsnap's
# own binary, by function. perf here cannot read the Swift binary's symbols itself ("cannot get
# elf header"), so its addresses go through llvm-symbolizer from the Swift toolchain.
# usage: tools/perf-profile.sh [--top N] -- BENCH ARGS...   e.g.
#        tools/perf-profile.sh -- --style ../shared/fixtures/styles/bright-v9-chicago.json --count 300 --ratio 2
# Needs perf (Debian's linux-perf) and kernel.perf_event_paranoid <= 2 (or root).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
top=30
if [ "${1:-}" = "--top" ]; then top=$2; shift 2; fi
[ "${1:-}" = "--" ] && shift
bin=${GLSNAP:-$root/.build/release/glsnap}
symbolizer=$(command -v llvm-symbolizer || echo "$(dirname "$(readlink -f "$(command -v swift)")")/llvm-symbolizer")
data=$(mktemp /tmp/glsnap-perf.XXXXXX)
trap 'rm -f "$data" "$data".*' EXIT
perf record -q -F 1999 -o "$data" "$bin" bench "$@" 2>&1 | grep -E "snapshots/s|CPU|time per" || true
echo "== CPU by library"
perf report -i "$data" --no-children --sort dso --stdio -g none 2>/dev/null | grep -v '^#' | grep -v '^$' | head -15
echo "== within $(basename "$bin"), by function"
perf report -i "$data" --no-children --sort sym --dsos "$(basename "$bin")" --stdio -g none 2>/dev/null |
  grep -v '^#' | grep '0x' | awk '{sub("%", "", $1); print $1, $3}' > "$data.raw"
cut -d' ' -f2 "$data.raw" | "$symbolizer" --obj="$bin" --functions=linkage --no-inlines 2>/dev/null | awk 'NR % 3 == 1' |
  swift demangle --simplified 2>/dev/null > "$data.names" || true
paste -d'|' <(cut -d' ' -f1 "$data.raw") "$data.names" |
  awk -F'|' '{a[$2] += $1} END {for (k in a) printf "%6.2f%%  %s\n", a[k], k}' | sort -rn | head -"$top" | cut -c1-160
