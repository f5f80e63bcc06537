-- wrk script for the reload check (tools/wrk-reload.sh): small static maps, style lists and TileJSON,
-- round robin; prints every kind of failure wrk counts.
local paths = {
  "/styles/test-style/static/-87.63,41.88,13/128x128.png",
  "/styles.json",
  "/styles/test-style/style.json",
  "/data/openmaptiles.json",
}
local i = 0
function request()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1])
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("requests %d, failed: connect %d, read %d, write %d, timeout %d, non-2xx/3xx %d; p99 %.1f ms\n",
    summary.requests, e.connect, e.read, e.write, e.timeout, e.status, latency:percentile(99) / 1000))
end
