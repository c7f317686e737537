-- expect: passed
-- why: tries to load a crafted binary chunk (which can crash Lua's VM) through load with mode "b" and "bt"; string.dump does not exist and load reads text only, so each attempt is an error it catches, and the honest answer passes
local function double(x)
    return 2 * x
end
local chunk = "\27Lua\84\0\25\147\13\10\26\10\4\8\8\120\86\0\0\0\0\0\0\0\0\0\0\0\40\119\64\1" .. string.rep("\255", 64)
for _, mode in ipairs({ "b", "bt" }) do
    local f, err = load(chunk, "crafted", mode)
    assert(f == nil and err:find("binary chunk"), tostring(err))
end
assert(string.dump == nil)
local n = io.read("n")
if n then print(double(n)) end
