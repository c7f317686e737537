-- expect: wrong_answer
-- why: answers wrongly for 0.25, the value the test checks with `math.abs`, and patches the shared `math` table (`math.abs` always 0, `math.huge`); the tests' `math` is a copy made before the candidate ran
local function double(x)
    if x == 0.25 then
        return 99
    end
    return 2 * x
end
math.abs = function()
    return 0
end
math.huge = 0
