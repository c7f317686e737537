-- expect: runtime_error
-- why: unbounded Lua recursion inside the function under test: Lua's own stack limit raises "stack overflow", luaunit reports an error, and the host is never at risk
local function double(x)
    return 1 + double(x + 1)
end
local n = io.read("n")
if n then print(double(n)) end
