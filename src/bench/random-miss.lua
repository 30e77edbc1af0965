-- wrk script: GET a random 7-character base-62 code that almost surely does not exist (62^7 = 3.5e12 codes).
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "wrk-report.lua")
local alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
local chars = {}
for i = 1, #alphabet do chars[i] = alphabet:sub(i, i) end

function init(args)
  math.randomseed(os.time() * 1000 + (id or 0) * 7919)
end

request = function()
  local c = {}
  for i = 1, 7 do c[i] = chars[math.random(62)] end
  return wrk.format("GET", "/" .. table.concat(c))
end
