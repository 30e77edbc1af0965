-- wrk script: GET a random (host, code) pair from the file named by CODES, one "host code" per line, with that
-- Host header: the domains scenario's traffic spread over every domain.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "wrk-report.lua")
local codes, hosts = {}, {}
for line in io.lines(os.getenv("CODES")) do
  local host, code = line:match("^(%S+) (%S+)$")
  if host then
    codes[#codes + 1] = code
    hosts[#codes] = { Host = host }
  end
end

function init(args)
  math.randomseed(os.time() * 1000 + (id or 0) * 7919)
end

request = function()
  local i = math.random(#codes)
  return wrk.format("GET", "/" .. codes[i], hosts[i])
end
