-- wrk soak mix: static views (512 and 256 px), raster tiles, malformed requests, over bright-v9-chicago.
local w, s, e, n = -87.802734, 41.771312, -87.583008, 41.967659
local counter = 0
function setup(thread) counter = counter + 1; thread:set("seed", counter) end
function init(args) math.randomseed(seed * 104729) end
function request()
  local k = math.random(10)
  local lon = w + (e - w) * (0.2 + 0.6 * math.random())
  local lat = s + (n - s) * (0.2 + 0.6 * math.random())
  if k <= 4 then
    return wrk.format("GET", string.format("/styles/bright-v9-chicago/static/%.5f,%.5f,%.2f/512x512.png", lon, lat, 13.5 + 2.5 * math.random()))
  elseif k <= 8 then
    local z = 14 + math.random(0, 2)
    local x = math.floor((lon + 180) / 360 * 2 ^ z)
    local y = math.floor((1 - math.log(math.tan(math.rad(lat)) + 1 / math.cos(math.rad(lat))) / math.pi) / 2 * 2 ^ z)
    return wrk.format("GET", string.format("/styles/bright-v9-chicago/%d/%d/%d.png", z, x, y))
  elseif k == 9 then
    return wrk.format("GET", string.format("/styles/bright-v9-chicago/static/auto/256x256.png?path=%.5f,%.5f|%.5f,%.5f&marker=%.5f,%.5f|pin.png",
      lon, lat, lon + 0.01, lat + 0.01, lon, lat))
  else
    return wrk.format("GET", string.format("/styles/bright-v9-chicago/static/%.5f,%.5f,99/99999x1.png", lon, lat))
  end
end
function done(summary, latency, requests)
  io.write(string.format("requests %d, non-2xx/3xx: %d, p50 %.1f ms, p99 %.1f ms\n", summary.requests, summary.errors.status,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
