-- expect: passed
-- why: control: a correct answer passes the luaunit case and both io cases
local function double(x)
    return 2 * x
end
local n = io.read("n")
if n then print(double(n)) end
