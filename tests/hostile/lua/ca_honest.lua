-- expect: passed
-- why: control: a correct `local function` is found by the guest's `return double` and its values judged on the host
local function double(x)
    return 2 * x
end
