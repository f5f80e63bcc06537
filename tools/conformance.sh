#!/usr/bin/env bash
# Regression floors on the shared suites (part of the test command). Each line is a figure an
# issue asks for; a run below its floor fails.
# usage: tools/conformance.sh [BUILD_DIR]     (default .build/debug)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/debug}/glsnap-conformance
shared=../shared
if [ ! -d "$shared/integration" ]; then
  echo "conformance: ../shared is not present; skipping the suites" >&2
  exit 0
fi
out=.build/conformance-ci
mkdir -p "$out"
echo "== maps without symbols (every case within 0.005 of MapLibre Native)"
"$bin" maps --suite "$shared/maps" --root "$shared" --without-symbols --output "$out" --report "$out/maps-nosymbols.json"
echo "== render suite, the foundation's categories (floor 95%)"
"$bin" render --suite "$shared/integration" --output "$out" --report "$out/render-foundation.json" --min-pass-rate 0.95 \
  --filter 'background-*,fill-*,line-*,circle-*,geojson,filter,extent,empty,tms,sparse-tileset,tilejson-bounds,zoom-visibility,zoomed-fill,!background-pattern,!fill-extrusion-*,!fill-pattern,!line-pattern,!line-gradient' \
  | tail -3
echo "== query suite (floor 97%)"
"$bin" query --suite "$shared/integration" --output "$out" --report "$out/query.json" --min-pass-rate 0.97 | tail -2
echo "== maps with symbols (mean mismatch at most 0.006, no case above 0.015)"
"$bin" maps --suite "$shared/maps" --root "$shared" --output "$out" --report "$out/maps.json" > "$out/maps.txt" || true
python3 - "$out/maps.json" <<'PY'
import json, sys
cases = [c for c in json.load(open(sys.argv[1]))["cases"] if c["status"] != "skipped"]
diffs = [c["difference"] if c["difference"] is not None else 1.0 for c in cases]
mean, worst = sum(diffs) / len(diffs), max(diffs)
print(f"maps with symbols: mean {mean:.5f}, max {worst:.5f} over {len(diffs)} cases")
sys.exit(0 if mean <= 0.006 and worst <= 0.015 else 1)
PY
echo "== render suite, text/icon/symbol categories (floor 90%)"
"$bin" render --suite "$shared/integration" --output "$out" --report "$out/render-symbols.json" --min-pass-rate 0.90 \
  --filter 'text-*,icon-*,symbol-*' | tail -2
# Checks the last "N passed, M failed" line of a suite's output against a floor.
floor() {
  python3 - "$1" "$2" "$3" <<'PY'
import re, sys
path, floor, name = sys.argv[1], float(sys.argv[2]), sys.argv[3]
m = re.search(r"(\d+) passed, (\d+) failed", open(path).read().splitlines()[-1])
p, f = int(m.group(1)), int(m.group(2))
rate = p / (p + f)
print(f"{name} pass rate {rate:.1%} (floor {floor:.0%})")
sys.exit(0 if rate >= floor else 1)
PY
}
echo "== expression suite (floor 98%)"
"$bin" expression --suite "$shared/style-spec/expression" > "$out/expression.txt" || true
tail -1 "$out/expression.txt"
floor "$out/expression.txt" 0.98 expression
echo "== validation suite (floor 90%)"
"$bin" validation --suite "$shared/style-spec/validation" > "$out/validation.txt" || true
tail -1 "$out/validation.txt"
floor "$out/validation.txt" 0.90 validation
