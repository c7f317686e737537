-- expect: runtime_error
-- why: returns a function (whose call would return the answer) for 2 and, for the others, a table that contains itself; neither is plain data, so the guest refuses to encode them (an error), and nothing is judged equal
local function double(x)
    if x == 2 then
        return function() return 2 * x end
    end
    local t = {}
    t[1] = t
    return t
end
