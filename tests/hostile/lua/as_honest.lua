-- expect: passed
-- why: control for `assertion_task.json`, and a right answer that uses what a program may: it extends the string library (`function string.twice`, called as a method) and indexes strings by position through the string metatable's `__index`, both as standard Lua allows, and relies on strings' arithmetic
function string.twice(s)
    return s .. s
end
local index = getmetatable("").__index
getmetatable("").__index = function(s, key)
    if math.type(key) == "integer" then
        return string.sub(s, key, key)
    end
    return index[key]
end
local function double(x)
    assert(("ab"):twice() == "abab" and ("xyz")[2] == "y" and "10" + 1 == 11)
    local fields = 0
    for _ in pairs(getmetatable("")) do
        fields = fields + 1
    end
    assert(fields > 0 and getmetatable("").__index ~= nil)
    return 2 * x
end
