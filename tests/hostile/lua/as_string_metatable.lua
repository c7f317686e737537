-- expect: wrong_answer
-- why: answers wrongly for 7 and 4, which the test formats with a string method and `string.rep`, and patches both paths: the shared `string` table (`string.format`, `string.rep`) and the string metatable (its `__index`, and `__metatable` so no one can see it); the tests' string methods come from a copy of the library made before the candidate ran
local function double(x)
    if x == 7 or x == 4 then
        return -1
    end
    return 2 * x
end
local format, rep = string.format, string.rep
string.format = function(f, v, ...)
    if v == -1 then
        return "14"
    end
    return format(f, v, ...)
end
string.rep = function(s, n, ...)
    if n == -1 then
        return "xxxxxxxx"
    end
    return rep(s, n, ...)
end
local meta = getmetatable("")
meta.__index = setmetatable({ format = string.format, rep = string.rep }, { __index = string })
meta.__metatable = false
