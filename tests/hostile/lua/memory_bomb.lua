-- expect: memory_limit
-- why: doubles a string and keeps every step in a table; Lua's allocator gets NULL at the memory limit and raises "not enough memory", which the luaunit case reports as an error, and the refused growth makes it memory_limit
local kept = {}
local function double(x)
    local s = "x"
    while true do
        s = s .. s
        kept[#kept + 1] = s
    end
end
local n = io.read("n")
if n then print(double(n)) end
