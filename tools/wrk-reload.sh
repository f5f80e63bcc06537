#!/bin/sh
# SIGHUP under load: glsnap serve on the shared fixtures, wrk for DURATION seconds (default 20) on
# 16 connections, the configuration rewritten (one style <-> two) and SIGHUP sent every 2 s.
# Prints wrk's failure counts; the check passes when all are 0. NOHUP=1: the same run without signals.
# usage: tools/wrk-reload.sh [path/to/glsnap] [DURATION]
set -eu
GLSNAP=${1:-.build/debug/glsnap}
DURATION=${2:-20}
FIX=$(cd "$(dirname "$0")/../../shared/fixtures" && pwd)
DIR=$(mktemp -d)
PORT=${PORT:-18931}
write_config() {
  extra=$1
  cat > "$DIR/config.json.tmp" <<JSON
{"options": {"paths": {"root": "$FIX", "fonts": "glyphs", "styles": "styles", "mbtiles": "tiles"}},
 "styles": {"test-style": {"style": "bright-v9-chicago.json"}$extra},
 "data": {"openmaptiles": {"mbtiles": "chicago-z13.mbtiles"}}}
JSON
  mv "$DIR/config.json.tmp" "$DIR/config.json"
}
write_config ""
"$GLSNAP" serve --config "$DIR/config.json" --port "$PORT" --workers 2 --quiet > "$DIR/serve.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; rm -rf "$DIR"' EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PORT/health" > /dev/null 2>&1 && break; sleep 0.2; done
wrk -c 16 -t 2 -d "${DURATION}s" --timeout 15s --latency -s "$(dirname "$0")/wrk-reload.lua" "http://127.0.0.1:$PORT" > "$DIR/wrk.out" &
WRK=$!
n=0
while kill -0 $WRK 2>/dev/null; do
  sleep 2
  n=$((n + 1))
  if [ $((n % 2)) -eq 1 ]; then write_config ', "second": {"style": "basic-v9-chicago.json"}'; else write_config ""; fi
  [ "${NOHUP:-0}" = 1 ] || kill -HUP $PID 2>/dev/null || { echo "glsnap serve died"; exit 1; }
done
wait $WRK || true
echo "SIGHUPs sent: $n"
grep -c "configuration reloaded" "$DIR/serve.log" | sed 's/^/reloads done: /'
grep -E "requests|Requests/sec" "$DIR/wrk.out"
kill -0 $PID && echo "server still running"
