-- wrk script: GET the stats of one link over a date range, with the admin key.
--   STATS_PATH  the path and query, e.g. /api/v1/links/abc/stats?from=2025-01-01&to=2025-12-31
--   SHORTGATE_ADMIN_KEY  sent as X-Api-Key
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "wrk-report.lua")
local path = os.getenv("STATS_PATH")
local key = os.getenv("SHORTGATE_ADMIN_KEY") or ""

request = function()
  return wrk.format("GET", path, { ["X-Api-Key"] = key })
end
