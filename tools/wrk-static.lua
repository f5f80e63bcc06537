-- wrk script: random 512x512 static views over the middle 60% of bright-v9-chicago's data
-- (bounds -87.8027,41.7713,-87.5830,41.9677; zoom 13.5-16, as `glsnap bench`'s seeded walk).
-- usage: wrk -c 64 -d 30s -t 2 --latency -s tools/wrk-static.lua http://127.0.0.1:8080
local w, s, e, n = -87.802734, 41.771312, -87.583008, 41.967659
local counter = 0
function setup(thread) counter = counter + 1; thread:set("seed", counter) end
function init(args) math.randomseed(seed * 7919) end
function request()
  local lon = w + (e - w) * (0.2 + 0.6 * math.random())
  local lat = s + (n - s) * (0.2 + 0.6 * math.random())
  local zoom = 13.5 + 2.5 * math.random()
  return wrk.format("GET", string.format("/styles/bright-v9-chicago/static/%.5f,%.5f,%.2f/512x512.png", lon, lat, zoom))
end
local codes = {}
function response(status, headers, body) codes[status] = (codes[status] or 0) + 1 end
function done(summary, latency, requests)
  io.write(string.format("non-2xx/3xx: %d, p50 %.1f ms, p99 %.1f ms\n", summary.errors.status,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
