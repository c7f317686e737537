-- expect: timeout
-- why: `while true do end` at the top level: fuel runs out (deterministic), the wall clock is only a backstop
local function double(x)
    return 2 * x
end
while true do end
