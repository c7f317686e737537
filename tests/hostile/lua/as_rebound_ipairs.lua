-- expect: wrong_answer
-- why: answers wrongly for 1 and 5, the values the test checks in an `ipairs` loop, and rebinds `ipairs` (and `next`) so that the loop never runs: the tests resolve standard names in a snapshot taken before the candidate ran
local function double(x)
    if x == 1 or x == 5 then
        return 0
    end
    return 2 * x
end
ipairs = function()
    return function() end
end
next = function() end
