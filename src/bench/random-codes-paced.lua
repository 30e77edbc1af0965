-- wrk script: like random-codes.lua, but each connection waits PACE_MS milliseconds before each request, so the
-- offered load is about connections x 1000 / PACE_MS requests per second instead of as many as the server takes.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "random-codes.lua")
local pace = tonumber(os.getenv("PACE_MS") or "10")

delay = function()
  return pace
end
