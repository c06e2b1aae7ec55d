-- wrk script of `bun run bench:api`, configured by environment variables:
--   BENCH_KEY        bearer key of every request, except rotating POSTs
--   BENCH_METHOD     GET (default) or POST
--   BENCH_BODY_FILE  POST: the JSON body; "__N__" in it is replaced to give 16 different bodies
--   BENCH_KEYS_FILE  POST: when set, keys (one a line) that take turns, BENCH_PER_KEY creates each,
--                    so no account reaches its limit of 50 schemas; starting at BENCH_KEY_OFFSET
-- done() prints one line: RESULT rps=.. p50_ms=.. p99_ms=.. requests=.. non2xx=.. errors=.. next_key=..
local env = os.getenv
local per = tonumber(env("BENCH_PER_KEY") or "40")
local offset = tonumber(env("BENCH_KEY_OFFSET") or "0")

wrk.headers["Authorization"] = "Bearer " .. (env("BENCH_KEY") or "")

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

n = 0

if env("BENCH_METHOD") == "POST" then
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  local f = assert(io.open(env("BENCH_BODY_FILE")))
  local template = f:read("*a")
  f:close()
  local bodies = {}
  for i = 1, 16 do bodies[i] = template:gsub("__N__", tostring(i)) end
  wrk.body = bodies[1]

  local keys = {}
  if env("BENCH_KEYS_FILE") then
    for line in io.lines(env("BENCH_KEYS_FILE")) do
      if #line > 0 then keys[#keys + 1] = line end
    end
  end

  if #keys > 0 then
    function request()
      local k = (offset + math.floor(n / per)) % #keys
      n = n + 1
      local headers = { ["Authorization"] = "Bearer " .. keys[k + 1], ["Content-Type"] = "application/json" }
      return wrk.format(nil, nil, headers, bodies[n % 16 + 1])
    end
  end
end

function done(summary, latency, requests)
  local used = 0
  for _, t in ipairs(threads) do used = math.max(used, math.ceil((t:get("n") or 0) / per)) end
  local e = summary.errors
  io.write(string.format(
    "RESULT rps=%.1f p50_ms=%.3f p99_ms=%.3f requests=%d non2xx=%d errors=%d next_key=%d\n",
    summary.requests / summary.duration * 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.requests, e.status, e.connect + e.read + e.write + e.timeout, offset + used))
end
