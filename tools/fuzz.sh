#!/usr/bin/env bash
# Runs glsnap's libFuzzer targets (Sources/GLSnapFuzz) under AddressSanitizer.
# usage: tools/fuzz.sh TARGET[,TARGET...]|all SECONDS
#   targets: mvt mlt pmtiles json style expression geojson svg-parameters route
# Prints the executions of each target (libFuzzer's stat::number_of_executed_units). A crash, a
# sanitizer report, a leak or a hang (over FUZZ_TIMEOUT seconds for one input) stops that target
# and leaves the input in .build-fuzz/artifacts/TARGET/; the script then exits 1. Keep such an
# input as a regression test: fix the bug, then copy the file to Tests/Fuzz/TARGET/crashes/
# (FuzzRegressionTests replays it). Replay one without libFuzzer: .build/debug/glsnap-fuzz TARGET FILE.
#
# The build has its own scratch path (.build-fuzz), so the normal build never links libFuzzer.
# Seeds are copied at run time from ../shared and Tests/Fuzz into .build-fuzz/corpus/TARGET, which
# libFuzzer grows; nothing large is committed.
# Environment: FUZZ_CONFIG=debug|release (default debug: shares the incremental build; release
# runs several times more executions per second), FUZZ_JOBS=N targets at a time (default 1),
# FUZZ_TIMEOUT=seconds per input (default 10), FUZZ_RSS_MB=memory limit per target (default 2048).
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(mvt mlt pmtiles json style expression geojson svg-parameters route)
if [ $# -ne 2 ] || ! [[ "$2" =~ ^[0-9]+$ ]]; then
    echo "usage: tools/fuzz.sh TARGET[,TARGET...]|all SECONDS   (targets: ${targets[*]})" >&2
    exit 2
fi
if [ "$1" = all ]; then selected=("${targets[@]}"); else
    IFS=, read -r -a selected <<< "$1"
    for t in "${selected[@]}"; do
        [[ " ${targets[*]} " == *" $t "* ]] || { echo "fuzz.sh: unknown target '$t' (targets: ${targets[*]})" >&2; exit 2; }
    done
fi
seconds=$2
config=${FUZZ_CONFIG:-debug}
jobs=${FUZZ_JOBS:-1}
scratch=.build-fuzz
shared=../shared

swift build --product glsnap-fuzz --scratch-path "$scratch" -c "$config" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DGLSNAP_FUZZ 2>&1 | grep -v "Cannot export local symbol" || true
binary="$scratch/$config/glsnap-fuzz"
[ -x "$binary" ] || { echo "fuzz.sh: the fuzz build failed" >&2; exit 1; }

# Copies the files given on stdin (one path a line) into a corpus folder.
add_seeds() { while IFS= read -r f; do [ -f "$f" ] && cp -f "$f" "$1/seed-$(cksum < "$f" | cut -d' ' -f1)"; done; true; }

# A few small PMTiles archives built from mvt fixtures (root only; one leaf level; gzip
# directories) with the repository's own converter.
pmtiles_seeds() {
    python3 - "$1" "$shared/mvt-fixtures/fixtures" tools/mbtiles-to-pmtiles.py <<'PY'
import glob, gzip, os, sqlite3, subprocess, sys
out, fixtures, converter = sys.argv[1:]
tiles = sorted(glob.glob(os.path.join(fixtures, "*/tile.mvt")))[:6]
if not tiles:
    sys.exit(0)
db_path = os.path.join(out, "seed.mbtiles")
if os.path.exists(db_path):
    os.remove(db_path)
db = sqlite3.connect(db_path)
db.execute("CREATE TABLE metadata (name TEXT, value TEXT)")
db.execute("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
db.executemany("INSERT INTO metadata VALUES (?, ?)", [("format", "pbf"), ("minzoom", "0"), ("maxzoom", "2"),
               ("bounds", "-180,-85,180,85"), ("center", "0,0,1"), ("json", '{"vector_layers": []}')])
cells = [(0, 0, 0), (1, 0, 0), (1, 1, 1), (2, 1, 2), (2, 3, 0), (2, 2, 2)]
for (z, x, y), path in zip(cells, tiles):
    data = open(path, "rb").read()
    db.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (z, x, (1 << z) - 1 - y, gzip.compress(data, mtime=0) if z % 2 else data))
db.commit()
db.close()
for name, extra in [("root.pmtiles", []), ("leaves.pmtiles", ["--leaf-size", "2"])]:
    subprocess.run([sys.executable, converter, db_path, os.path.join(out, name)] + extra, check=True, stdout=subprocess.DEVNULL)
os.remove(db_path)
PY
}

seed() {
    local target=$1 corpus=$2
    mkdir -p "$corpus"
    [ -d "Tests/Fuzz/$target" ] && find "Tests/Fuzz/$target" -type f ! -name README.md | add_seeds "$corpus"
    [ -d "$shared" ] || return 0
    case $target in
        mvt) find "$shared/mvt-fixtures/fixtures" -name tile.mvt | add_seeds "$corpus" ;;
        mlt) find "$shared/integration-gljs/tiles/mlt" -name "*.mlt" | add_seeds "$corpus" ;;
        pmtiles) pmtiles_seeds "$corpus" ;;
        json) { find "$shared/style-spec/validation" -name "*.json" -size -16k; find "$shared/fixtures/styles" -name "*.json" -size -16k
                find "$shared/style-spec/expression" -name test.json | head -40; } | add_seeds "$corpus" ;;
        style) { find "$shared/style-spec/validation" -name "*.input.json" -size -16k; find "$shared/fixtures/styles" -name "*.json" -size -16k
                 find "$shared/integration/render" -name style.json -size -4k | sort | awk 'NR % 8 == 0'; } | add_seeds "$corpus" ;;
        expression) find "$shared/style-spec/expression" -name test.json -size -16k | add_seeds "$corpus" ;;
        geojson) find "$shared/integration/data" "$shared/mvt-fixtures" -name "*.geojson" -size -64k | add_seeds "$corpus" ;;
        svg-parameters) find "$shared/fixtures/icons" "$shared/integration/sprites" -name "*.svg" -size -16k | add_seeds "$corpus" ;;
        route) ;;
    esac
}

# Runs one target; prints one summary line; returns libFuzzer's status.
run_target() {
    local target=$1 corpus="$scratch/corpus/$1" artifacts="$scratch/artifacts/$1/" log="$scratch/logs/$1.log"
    # libFuzzer first runs every corpus file, whatever -max_total_time says: a short run (the test
    # command's) starts from the seeds alone instead of the corpus long runs grew.
    if [ "$seconds" -lt 60 ]; then corpus="$scratch/corpus-short/$1"; rm -rf "$corpus"; fi
    mkdir -p "$artifacts" "$scratch/logs"
    seed "$target" "$corpus"
    local started="$scratch/logs/$target.started"
    touch "$started"
    local status=0
    # SWIFT_BACKTRACE=enable=no: Swift's own crash backtracer would otherwise hold a crashing
    # process instead of letting libFuzzer write the input and exit.
    GLSNAP_FUZZ_TARGET=$target SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=${ASAN_OPTIONS:-} \
        nice -n 10 "$binary" "$corpus" -max_total_time="$seconds" -print_final_stats=1 \
        -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" -max_len=65536 \
        -artifact_prefix="$artifacts" > "$log" 2>&1 || status=$?
    local runs
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    if [ "$status" -eq 0 ]; then
        echo "fuzz $target: ${runs:-?} executions in ${seconds} s, no crash ($(ls "$corpus" | wc -l) corpus files)"
    else
        echo "fuzz $target: FAILED (exit $status) after ${runs:-?} executions; log $log; input(s):"
        find "$artifacts" -type f -newer "$started" | sed 's|^|    |'
        grep -E "^(==[0-9]+==ERROR|SUMMARY|Fatal error|.*error:)" "$log" | head -5 | sed 's/^/    /'
    fi
    return "$status"
}

failed=0
running=0
for target in "${selected[@]}"; do
    if [ "$jobs" -le 1 ]; then
        run_target "$target" || failed=1
    else
        run_target "$target" &
        running=$((running + 1))
        if [ "$running" -ge "$jobs" ]; then wait -n || failed=1; running=$((running - 1)); fi
    fi
done
while [ "$running" -gt 0 ]; do wait -n || failed=1; running=$((running - 1)); done
exit "$failed"
