-- wrk script: POSTs the lines of an NDJSON file of App Store notifications ({"signedPayload": …}), each
-- thread its own share of the lines in turn and then again (a resend is a duplicate, answered 200 and
-- not stored twice), and counts the responses by status. bench/notifications.sh stops it once every
-- notification is stored.
local lines_path = os.getenv("NOTIFICATIONS")
local threads = {}
local counter = 0

function setup(thread)
   thread:set("id", counter)
   counter = counter + 1
   table.insert(threads, thread)
end

function init(args)
   total_threads = tonumber(os.getenv("THREADS"))
   bodies = {}
   local index = 0
   for line in io.lines(lines_path) do
      if index % total_threads == id then table.insert(bodies, line) end
      index = index + 1
   end
   next_body = 1
   status_counts = {}
end

function request()
   local body = bodies[(next_body - 1) % #bodies + 1]
   next_body = next_body + 1
   return wrk.format("POST", "/v1/stores/apple/notifications", {["Content-Type"] = "application/json"}, body)
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
   local parts = {}
   for status, count in pairs(totals) do table.insert(parts, status .. "=" .. count) end
   table.sort(parts)
   io.write(string.format("statuses %s\n", table.concat(parts, " ")))
   io.write(string.format("p50_ms %.1f p99_ms %.1f\n", latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
