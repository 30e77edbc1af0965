-- wrk script: POST /api/v1/links with a new URL on every request (unique per run tag, wrk start time, thread and
-- counter), so each request creates a link: the warm-up and the measured runs of one scenario share RUN_TAG, and
-- each starts its counter at 0, so the start time keeps their URLs apart (without it, the measured runs only found
-- the links the warm-up had made). Env: RUN_TAG, SHORTGATE_ADMIN_KEY (optional).
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "wrk-report.lua")
local tag = (os.getenv("RUN_TAG") or "run") .. "-" .. tostring(os.time())
local headers = { ["Content-Type"] = "application/json" }
local key = os.getenv("SHORTGATE_ADMIN_KEY")
if key and #key > 0 then headers["X-Api-Key"] = key end
local counter = 0

request = function()
  counter = counter + 1
  local body = string.format('{"url":"https://example.com/bench/%s/%d/%d?utm_source=wrk"}', tag, id, counter)
  return wrk.format("POST", "/api/v1/links", headers, body)
end
