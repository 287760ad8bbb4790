-- GET each line of a file of paths in turn (rotating ids, cursors or search terms).
-- usage: wrk ... -s paths.lua http://host:port -- FILE [HEADER-NAME HEADER-VALUE]
local requests, count, index = {}, 0, 0
function init(args)
  local headers = {}
  if args[2] then headers[args[2]] = args[3] end
  for line in io.lines(args[1]) do
    count = count + 1
    requests[count] = wrk.format("GET", line, headers)
  end
end
function request()
  index = index % count + 1
  return requests[index]
end
