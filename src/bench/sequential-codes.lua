-- wrk script: GET every code in the file named by CODES exactly once, split across threads by stride, then
-- stop the thread. Used to fill the near cache. wrk itself runs until -d (the upper bound) unless stopped with
-- SIGINT: each thread that is done appends a line to the file named by DONE_FILE, which run.sh watches.
-- A line "host code" sends that code with that Host header (the domains scenario); a line "code" sends no Host.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "wrk-report.lua")
local codes, hosts = {}, {}
for line in io.lines(os.getenv("CODES")) do
  if #line > 0 then
    local host, code = line:match("^(%S+) (%S+)$")
    codes[#codes + 1] = code or line
    if host then hosts[#codes] = { Host = host } end
  end
end
local threads_total = tonumber(os.getenv("WRK_THREADS") or "1")
local next_index, mine, answered, bad = 0, 0, 0, 0

function init(args)
  next_index = id
  mine = 0
  for i = id, #codes, threads_total do mine = mine + 1 end
  if mine == 0 then
    local f = os.getenv("DONE_FILE") and io.open(os.getenv("DONE_FILE"), "a")
    if f then f:write(id, " 0 0\n"); f:close() end
    wrk.thread:stop()
  end
end

-- wrk calls request() once more on thread 1 to check the script, so one of its codes is never sent; run.sh
-- divides by the near cache's growth, not by the number of codes, so that does not skew a figure.
request = function()
  local i = next_index
  if i > #codes then i = #codes else next_index = next_index + threads_total end
  return wrk.format("GET", "/" .. codes[i], hosts[i])
end

response = function(status, headers, body)
  answered = answered + 1
  if status ~= 302 then bad = bad + 1 end
  if answered >= mine then
    if bad > 0 then io.stderr:write(string.format("thread %d: %d non-302 answers\n", id, bad)) end
    local f = os.getenv("DONE_FILE") and io.open(os.getenv("DONE_FILE"), "a")
    if f then f:write(id, " ", answered, " ", bad, "\n"); f:close() end
    answered = -math.huge -- write once
    wrk.thread:stop()
  end
end
