-- Issue #49's mix: of every 20 requests, 15 reads of a paths file (pages and details, the
-- response cache on), 2 creates of products named with fresh words, 3 searches for a word of
-- a product whose create was acknowledged (201) on this thread: a search for what was just
-- written. Until a create is acknowledged, a search turn reads instead.
-- Writes carry the API key in ROWSERVER_KEY (Authorization: Bearer).
-- usage: ROWSERVER_KEY=rsk_... wrk -t1 ... -s searchmix.lua http://host:port -- PATHS-FILE [RUN]
-- RUN (letters) starts every fresh word, so that the words of one run are new to the next.
local reads, readCount, index, counter, run = {}, 0, 0, 0, ""
local words, first, last = {}, 1, 0
local headers = {["Content-Type"] = "application/json"}
local key = os.getenv("ROWSERVER_KEY") or ""
if key ~= "" then headers["Authorization"] = "Bearer " .. key end
searches, creates, acknowledged = 0, 0, 0

function init(args)
  for line in io.lines(args[1]) do readCount = readCount + 1; reads[readCount] = wrk.format("GET", line) end
  run = args[2] or ""
end

-- A word no product has: letters only (the search folds case), from the counter in base 26.
local function fresh(n)
  local letters = {}
  repeat
    table.insert(letters, string.char(97 + n % 26))
    n = math.floor(n / 26)
  until n == 0
  return "zq" .. run .. table.concat(letters) .. "x"
end

local function read()
  index = index % readCount + 1
  return reads[index]
end

function request()
  counter = counter + 1
  local turn = counter % 20
  if turn == 15 or turn == 16 then
    creates = creates + 1
    local body = string.format('{"name":"Bench %s %s","shortDescription":"mix","longDescription":"","price":{"minorUnits":%d,"currency":"USD"}}',
      fresh(counter * 2), fresh(counter * 2 + 1), counter % 100000)
    return wrk.format("POST", "/v1/products", headers, body)
  elseif turn >= 17 then
    if first > last then return read() end
    local word = words[first]
    words[first] = nil
    first = first + 1
    searches = searches + 1
    return wrk.format("GET", "/v1/products?q=" .. word .. "&limit=50")
  end
  return read()
end

function response(status, headers, body)
  if status == 201 then
    acknowledged = acknowledged + 1
    -- The created product's name, whose two fresh words a later search looks for (one each).
    local a, b = body:match('"Bench (zq%a+x) (zq%a+x)"')
    if a then
      last = last + 1; words[last] = a
      last = last + 1; words[last] = b
    end
  end
end
