-- expect: runtime_error
-- why: recursion through C functions (string.gsub callbacks, nested pcall, metamethods): Lua counts C calls and raises "C stack overflow" long before the 8 MiB C stack (first in linear memory) could overflow
local mt = {}
mt.__index = function(t, k) return setmetatable({}, mt)[k] end
local function through_gsub(s)
    return (s:gsub(".", through_gsub))
end
local function double(x)
    local ok, err = pcall(through_gsub, "abc")
    local ok2, err2 = pcall(function() return setmetatable({}, mt).missing end)
    error("still here: " .. tostring(err) .. " / " .. tostring(err2))
end
local n = io.read("n")
if n then print(double(n)) end
