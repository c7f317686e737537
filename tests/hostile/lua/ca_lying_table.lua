-- expect: wrong_answer
-- why: returns a table whose metatable claims to be the answer (__eq, __index, __len, __tostring, __name); the guest encodes returned values with raw operations only, so the host sees an empty table
local function double(x)
    return setmetatable({}, {
        __eq = function() return true end,
        __index = function() return 2 * x end,
        __len = function() return 1 end,
        __tostring = function() return tostring(2 * x) end,
        __name = "number",
    })
end
