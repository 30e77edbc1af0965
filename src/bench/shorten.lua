-- wrk script: POST /api/v1/links with a new URL on every request (unique per run tag, thread and counter),
-- so each request creates a link. Env: RUN_TAG (unique per wrk run), SHORTGATE_ADMIN_KEY (optional).
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "wrk-report.lua")
local tag = os.getenv("RUN_TAG") or tostring(os.time())
local headers = { ["Content-Type"] = "application/json" }
local key = os.getenv("SHORTGATE_ADMIN_KEY")
if key and #key > 0 then headers["X-Api-Key"] = key end
local counter = 0

request = function()
  counter = counter + 1
  local body = string.format('{"url":"https://example.com/bench/%s/%d/%d?utm_source=wrk"}', tag, id, counter)
  return wrk.format("POST", "/api/v1/links", headers, body)
end
