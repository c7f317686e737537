-- expect: wrong_answer
-- why: answers wrongly for everything but 2 and gives the globals table a metatable whose `__index` lies about every standard name, then removes the names (`ipairs`, `math`, `string`, `tostring`, `table`) so that lookups fall through to it; the tests never look standard names up in the candidate's globals
local function double(x)
    if x == 2 then
        return 4
    end
    return -x
end
local lies = {
    ipairs = function() return function() end end,
    pairs = function() return function() end end,
    math = { abs = function() return 0 end },
    string = { rep = function() return "xxxxxxxx" end, format = function() return "14" end },
    tostring = function() return "18" end,
    table = { concat = function() return "22" end },
}
for name in pairs(lies) do
    _G[name] = nil
end
setmetatable(_G, { __index = lies })
getmetatable("").__index = lies.string
