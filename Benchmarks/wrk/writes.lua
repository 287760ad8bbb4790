-- POST new products (group commit under load). With MIX=n, only 1 request in n writes and
-- the others GET the paths file (a 90/10 read/write mix is MIX=10).
-- Writes carry the API key in ROWSERVER_KEY (Authorization: Bearer; none when it is empty):
-- bench.py makes one for each rowserver it starts.
-- usage: ROWSERVER_KEY=rsk_... wrk ... -s writes.lua http://host:port -- [MIX PATHS-FILE]
local counter, mix, reads, readCount, index = 0, 1, {}, 0, 0
local headers = {["Content-Type"] = "application/json"}
local key = os.getenv("ROWSERVER_KEY") or ""
if key ~= "" then headers["Authorization"] = "Bearer " .. key end
function init(args)
  mix = tonumber(args[1] or "1")
  if args[2] then
    for line in io.lines(args[2]) do readCount = readCount + 1; reads[readCount] = wrk.format("GET", line) end
  end
end
function request()
  counter = counter + 1
  if mix > 1 and readCount > 0 and counter % mix ~= 0 then
    index = index % readCount + 1
    return reads[index]
  end
  local body = string.format('{"name":"Bench %d","shortDescription":"load","longDescription":"","price":{"minorUnits":%d,"currency":"USD"}}', counter, counter % 100000)
  return wrk.format("POST", "/v1/products", headers, body)
end
