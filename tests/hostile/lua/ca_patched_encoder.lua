-- expect: wrong_answer
-- why: answers wrongly and patches what an encoder written in Lua could use (string.format, tostring, type, math.type, next, table.concat, the string metatable); calls.lua captured its functions before the candidate ran
local function double(x)
    return x
end
local lie = function() return "4" end
string.format = lie
tostring = lie
type = function() return "number" end
math.type = function() return "integer" end
next = function() return nil end
table.concat = lie
getmetatable("").__index = function() return lie end
