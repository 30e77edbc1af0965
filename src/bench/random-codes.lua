-- wrk script: GET a random code from the file named by the CODES environment variable (one code per line).
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "wrk-report.lua")
local codes = {}
local path = os.getenv("CODES")
for line in io.lines(path) do
  if #line > 0 then codes[#codes + 1] = line end
end

function init(args)
  -- seed each thread differently, so threads do not request the same sequence of codes
  math.randomseed(os.time() * 1000 + (id or 0) * 7919)
end

request = function()
  return wrk.format("GET", "/" .. codes[math.random(#codes)])
end
