#!/usr/bin/env bash
# The test command: installs what glsnap needs (Debian 12), builds, runs the unit and render tests,
# then renders the bundled example once through the CLI on each backend and runs each fuzz target
# for a few seconds (FUZZ_SECONDS, default 5).
# usage: tools/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
swift build --build-tests
# MapLibre GL JS (from PyPI's maplibre wheel) for the viewer test in headless Chromium.
GLSNAP_MAPLIBRE="$(tools/maplibre-js.sh)"
export GLSNAP_MAPLIBRE
# The tests are XCTest; Swift Testing would add a second, empty "0 tests" summary.
swift test --skip-build --disable-swift-testing 2>&1 | tee .build/test.log | grep -vE "^Test Case '.*' (started|passed)"
.build/debug/glsnap render -o .build/example.png
.build/debug/glsnap render --backend egl --ratio 2 -o .build/example@2x.png
# Two glsnap serve replicas behind nginx: cache hits render nothing, a replica killed under load fails no request.
python3 tools/nginx-recipe.py
# Regression floors on the shared suites (skipped when ../shared is absent).
tools/conformance.sh .build/debug
# The Python package (built in release mode by pip) and the C ABI through pkg-config.
tools/test-python.sh
# Each libFuzzer target for a few seconds (tools/fuzz.sh; its own build in .build-fuzz). A crash
# fails the run after the summary below; the input is left in .build-fuzz/artifacts/TARGET/.
fuzz_status=0
tools/fuzz.sh all "${FUZZ_SECONDS:-5}" || fuzz_status=$?
# One closing line for the whole run: the unit tests' count (the suites above print their own).
python3 - .build/test.log <<'PY'
import re, sys
runs = re.findall(r"Executed (\d+) tests?, with (?:(\d+) tests? skipped and )?(\d+) failures?", open(sys.argv[1]).read())
total, skipped, failed = runs[-1]
total, skipped, failed = int(total), int(skipped or 0), int(failed)
print(f"glsnap: {total - failed - skipped} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
sys.exit(1 if failed else 0)
PY
exit "$fuzz_status"
