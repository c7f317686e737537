-- expect: runtime_error
-- why: does not parse; as for Python and JavaScript, a syntax error of an interpreted program is a runtime_error
local function double(x)
    return 2 * x
en
