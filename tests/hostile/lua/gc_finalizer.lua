-- expect: runtime_error
-- why: a finalizer that calls os.exit(0) runs when the function under test forces a collection, in the middle of luaunit's run; the run has not reported, so no token line is written
setmetatable({}, { __gc = function() os.exit(0) end })
local function double(x)
    collectgarbage()
    collectgarbage()
    return x
end
local n = io.read("n")
if n then print(double(n)) end
