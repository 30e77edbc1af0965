-- wrk script for the rules scenario: GET a random code from the file named by CODES, as a realistic mix of visitors
-- would: user agents of phones, tablets and desktops (and a bot), Accept-Language headers with q-values, and some
-- requests carrying a newsletter query. Every link carries five rules (src/bench/run.sh), so each request is tested
-- against device, language, query and country conditions before it lands on a rule's target or a split's arm.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "wrk-report.lua")
local codes = {}
for line in io.lines(os.getenv("CODES")) do
  if #line > 0 then codes[#codes + 1] = line end
end

local agents = {
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
}
local languages = {
  "en-US,en;q=0.9", "fr-FR,fr;q=0.9,en;q=0.8", "de-DE,de;q=0.9,en;q=0.8", "es-ES,es;q=0.9", "en-GB,en;q=0.9",
  "fr-CA,fr;q=0.9,en-CA;q=0.8", "pt-BR,pt;q=0.9,en;q=0.5,fr;q=0", "*",
}
local queries = { "", "", "", "", "?utm_source=newsletter", "?utm_source=twitter&ref=1", "", "?flag" }

function init(args)
  math.randomseed(os.time() * 1000 + (id or 0) * 7919)
end

request = function()
  local headers = {
    ["User-Agent"] = agents[math.random(#agents)],
    ["Accept-Language"] = languages[math.random(#languages)],
  }
  return wrk.format("GET", "/" .. codes[math.random(#codes)] .. queries[math.random(#queries)], headers)
end
