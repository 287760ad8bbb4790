-- The mixed workload of the soak and of the sanitized load: reads of a file of paths, and one
-- request in MIX a write of products that cycles create → patch → delete, so the database stays
-- about the same size however long it runs.
--
-- A line of the paths file is a path, optionally followed by tab-separated "Name: value" headers
-- (If-None-Match for 304s, Accept-Language). "@changes COLLECTION" follows that change feed:
-- each response's `next` token is the next request's `since`, so tokens never grow old enough to
-- expire. Every request the mix sends expects a 2xx or 3xx; a 4xx here is a defect too.
--
-- Writes never race each other: an id is patched only after its 201 arrived, and deleted only
-- after its patch's 200 arrived, each with If-Match set to the ETag it was answered with.
--
-- Every write needs an API key: ROWSERVER_KEY in the environment (the harness that starts rowserver
-- makes one with `rowserver keys create`), sent as Authorization: Bearer on writes only.
--
-- With ROWSERVER_ACKS=FILE, each thread writes FILE.<thread> as it goes: one line per write sent
-- ("sent-patch ID", "sent-delete ID") and per write acknowledged ("created ID", "patched ID",
-- "deleted ID"), so a harness can check afterwards that no acknowledged write was lost (a delete
-- carries X-Request-ID: mix-delete-ID, which the answer echoes: a 204 names nothing else).
--
-- usage: ROWSERVER_KEY=rsk_... wrk -t1 ... -s mix.lua http://host:port -- PATHS-FILE [MIX] [create]
-- With "create" as the third argument every write is a create (no patches, no deletes).
-- done() prints `MIX {json}`: requests, latency percentiles in µs, socket errors, responses by
-- status class (s2xx … s5xx) and writes answered (created, patched, deleted).
local threads = {}

function setup(thread)
    table.insert(threads, thread)
    thread:set("thread_number", #threads)
end

local reads, readCount, index, counter, mix, writeTurn, createOnly = {}, 0, 0, 0, 10, 0, false
local fresh, patched = { first = 1, last = 0 }, { first = 1, last = 0 }
local tokens = {}
local key = os.getenv("ROWSERVER_KEY") or ""
local acks = nil
s2xx, s3xx, s4xx, s5xx, created, patchedCount, deleted = 0, 0, 0, 0, 0, 0, 0

local function push(queue, value)
    queue.last = queue.last + 1
    queue[queue.last] = value
end

local function pop(queue)
    if queue.first > queue.last then return nil end
    local value = queue[queue.first]
    queue[queue.first] = nil
    queue.first = queue.first + 1
    return value
end

function init(args)
    for line in io.lines(args[1]) do
        local fields = {}
        for field in line:gmatch("[^\t]+") do table.insert(fields, field) end
        if #fields > 0 then
            local headers = {}
            for i = 2, #fields do
                local name, value = fields[i]:match("^([^:]+):%s*(.*)$")
                if name then headers[name] = value end
            end
            local feed = fields[1]:match("^@changes (%w+)$")
            readCount = readCount + 1
            if feed then
                reads[readCount] = { feed = feed }
            else
                reads[readCount] = wrk.format("GET", fields[1], headers)
            end
        end
    end
    mix = tonumber(args[2] or "10")
    createOnly = args[3] == "create"
    local ackPath = os.getenv("ROWSERVER_ACKS") or ""
    if ackPath ~= "" then
        acks = io.open(ackPath .. "." .. tostring(thread_number or 1), "w")
        acks:setvbuf("line")
    end
    -- Runs shorter than the file still reach every scenario: the file is shuffled, and each run
    -- starts somewhere else in it.
    math.randomseed(os.time())
    index = math.random(readCount) - 1
end

-- `headers` with the key's Authorization added (none when no key is given).
local function keyed(headers)
    if key ~= "" then headers["Authorization"] = "Bearer " .. key end
    return headers
end

local function ack(what, id)
    if acks and id then acks:write(what, " ", id, "\n") end
end

local function write()
    writeTurn = writeTurn + 1
    local turn = createOnly and 1 or writeTurn % 3
    if turn == 0 and patched.first <= patched.last then
        local item = pop(patched)
        ack("sent-delete", item.id)
        return wrk.format("DELETE", "/v1/products/" .. item.id,
            keyed({ ["If-Match"] = item.etag, ["X-Request-ID"] = "mix-delete-" .. item.id }))
    end
    if turn ~= 1 and fresh.first <= fresh.last then
        local item = pop(fresh)
        ack("sent-patch", item.id)
        local body = string.format('{"name":"Mix %d patched","price":{"minorUnits":%d}}', counter, counter % 100000)
        return wrk.format("PATCH", "/v1/products/" .. item.id,
            keyed({ ["Content-Type"] = "application/merge-patch+json", ["If-Match"] = item.etag }), body)
    end
    local body = string.format('{"name":"Mix %d","shortDescription":"soak","longDescription":"","price":{"minorUnits":%d,"currency":"USD"}}',
        counter, counter % 100000)
    return wrk.format("POST", "/v1/products", keyed({ ["Content-Type"] = "application/json" }), body)
end

function request()
    counter = counter + 1
    if mix > 0 and counter % mix == 0 then return write() end
    index = index % readCount + 1
    local read = reads[index]
    if type(read) == "string" then return read end
    local since = tokens[read.feed]
    if since then return wrk.format("GET", "/v1/" .. read.feed .. "/changes?since=" .. since) end
    return wrk.format("GET", "/v1/" .. read.feed .. "/changes")
end

function response(status, headers, body)
    if status < 300 then
        s2xx = s2xx + 1
    elseif status < 400 then
        s3xx = s3xx + 1
    elseif status < 500 then
        s4xx = s4xx + 1
    else
        s5xx = s5xx + 1
    end
    if status == 201 then
        local id = (headers["Location"] or ""):match("^/v1/products/(.+)$")
        if id then
            created = created + 1
            ack("created", id)
            push(fresh, { id = id, etag = headers["ETag"] })
        end
    elseif status == 200 and body:sub(1, 11) == '{"id":"prd_' then
        if body:find('"name":"Mix %d+ patched"') then
            patchedCount = patchedCount + 1
            local id = body:match('^{"id":"([^"]+)"')
            ack("patched", id)
            push(patched, { id = id, etag = headers["ETag"] })
        end
    elseif status == 200 and body:sub(1, 11) == '{"changes":' then
        local feed, since = body:match('"next":"/v1/(%w+)/changes%?since=([^"]+)"')
        if feed then tokens[feed] = since end
    elseif status == 204 then
        deleted = deleted + 1
        ack("deleted", (headers["X-Request-ID"] or ""):match("^mix%-delete%-(.+)$"))
    end
end

function done(summary, latency, requests)
    local totals = { s2xx = 0, s3xx = 0, s4xx = 0, s5xx = 0, created = 0, patchedCount = 0, deleted = 0 }
    for _, thread in ipairs(threads) do
        for name, _ in pairs(totals) do totals[name] = totals[name] + (thread:get(name) or 0) end
    end
    local errors = summary.errors
    io.write(string.format(
        'MIX {"requests":%d,"duration_us":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,"connect_errors":%d,' ..
        '"read_errors":%d,"write_errors":%d,"timeouts":%d,"non2xx3xx":%d,"s2xx":%d,"s3xx":%d,"s4xx":%d,"s5xx":%d,' ..
        '"created":%d,"patched":%d,"deleted":%d}\n',
        summary.requests, summary.duration, latency:percentile(50), latency:percentile(90), latency:percentile(99),
        latency.max, errors.connect, errors.read, errors.write, errors.timeout, errors.status, totals.s2xx, totals.s3xx,
        totals.s4xx, totals.s5xx, totals.created, totals.patchedCount, totals.deleted))
end
