-- wrk script: POSTs pre-built gzip NDJSON bodies (bench/make-bodies.py) to /v1/events, each thread its
-- own share of the bodies in turn, and counts the responses by status. With PARTS=n and PART=k (0-based)
-- this wrk takes only the k-th of n shares, so that n wrk processes can load n nodes with distinct bodies.
-- TARGET and CONTENT_TYPE post elsewhere (bench/serve-vs-influxdb.sh: line protocol to InfluxDB's /write).
local bodies_path = os.getenv("BODIES")
local target = os.getenv("TARGET") or "/v1/events"
local content_type = os.getenv("CONTENT_TYPE") or "application/x-ndjson"
local parts = tonumber(os.getenv("PARTS") or "1")
local part = tonumber(os.getenv("PART") or "0")
local threads = {}
local counter = 0

function setup(thread)
   thread:set("id", counter)
   counter = counter + 1
   table.insert(threads, thread)
end

function init(args)
   local file = assert(io.open(bodies_path, "rb"))
   local data = file:read("*a")
   file:close()
   bodies = {}
   total_threads = tonumber(os.getenv("THREADS"))
   local position, index = 1, 0
   while position <= #data do
      local b1, b2, b3, b4 = data:byte(position, position + 3)
      local length = ((b1 * 256 + b2) * 256 + b3) * 256 + b4
      if index % (total_threads * parts) == part * total_threads + id then
         table.insert(bodies, data:sub(position + 4, position + 3 + length))
      end
      position = position + 4 + length
      index = index + 1
   end
   next_body = 1
   status_counts = {}
   wrk.method = "POST"
   wrk.headers["Content-Type"] = content_type
   wrk.headers["Content-Encoding"] = "gzip"
end

function request()
   local body = bodies[next_body]
   next_body = next_body % #bodies + 1
   return wrk.format(nil, target, nil, body)
end

function response(status, headers, body)
   status_counts[status] = (status_counts[status] or 0) + 1
end

function done(summary, latency, requests)
   local totals = {}
   for _, thread in ipairs(threads) do
      local counts = thread:get("status_counts")
      for status, count in pairs(counts) do totals[status] = (totals[status] or 0) + count end
   end
   for status, count in pairs(totals) do io.write(string.format("status %d: %d\n", status, count)) end
   io.write(string.format("latency p50 %.1f ms, p99 %.1f ms, max %.1f ms\n",
      latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
