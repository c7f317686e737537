-- expect: timeout
-- why: busy-waits an hour on os.clock and os.time; clocks are virtual, so fuel ends it
local function double(x)
    return 2 * x
end
local start, wall = os.clock(), os.time()
while os.clock() - start < 3600 and os.time() - wall < 3600 do end
