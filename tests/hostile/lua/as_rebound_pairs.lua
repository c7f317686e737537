-- expect: wrong_answer
-- why: answers wrongly for 3, the value the test checks in a `pairs` loop, and rebinds `pairs` through `_G` so that the loop sees an empty table: the tests' `pairs` is the snapshot's
local function double(x)
    if x == 3 then
        return 0
    end
    return 2 * x
end
_G.pairs = function()
    return function() end, nil, nil
end
