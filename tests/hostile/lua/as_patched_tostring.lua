-- expect: wrong_answer
-- why: answers wrongly for 9 and 11, which the test turns into strings with `tostring` and `table.concat`, and rebinds both globals (and `table.concat` in the shared table); the tests' are the snapshot's
local function double(x)
    if x == 9 or x == 11 then
        return -1
    end
    return 2 * x
end
local real_tostring, real_concat = tostring, table.concat
tostring = function(v)
    if v == -1 then
        return "18"
    end
    return real_tostring(v)
end
table.concat = function(t, ...)
    if t[1] == -1 then
        return "22"
    end
    return real_concat(t, ...)
end
