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
echo "== render suite, the foundation's categories (floor 85%)"
"$bin" render --suite "$shared/integration" --output "$out" --report "$out/render-foundation.json" --min-pass-rate 0.85 \
  --filter 'background-*,fill-*,line-*,circle-*,geojson,filter,extent,empty,tms,sparse-tileset,tilejson-bounds,zoom-visibility,zoomed-fill,!background-pattern,!fill-extrusion-*,!fill-pattern,!line-pattern,!line-gradient' \
  | tail -3
echo "== expression suite (floor 98%)"
"$bin" expression --suite "$shared/style-spec/expression" > "$out/expression.txt" || true
tail -1 "$out/expression.txt"
python3 - "$out/expression.txt" 0.98 <<'PY'
import re, sys
m = re.search(r"(\d+) passed, (\d+) failed", open(sys.argv[1]).read().splitlines()[-1])
p, f = int(m.group(1)), int(m.group(2))
rate = p / (p + f)
print(f"expression pass rate {rate:.1%} (floor {float(sys.argv[2]):.0%})")
sys.exit(0 if rate >= float(sys.argv[2]) else 1)
PY
echo "== validation suite (floor 90%)"
"$bin" validation --suite "$shared/style-spec/validation" > "$out/validation.txt" || true
tail -1 "$out/validation.txt"
python3 - "$out/validation.txt" 0.90 <<'PY'
import re, sys
m = re.search(r"(\d+) passed, (\d+) failed", open(sys.argv[1]).read().splitlines()[-1])
p, f = int(m.group(1)), int(m.group(2))
rate = p / (p + f)
print(f"validation pass rate {rate:.1%} (floor {float(sys.argv[2]):.0%})")
sys.exit(0 if rate >= float(sys.argv[2]) else 1)
PY
