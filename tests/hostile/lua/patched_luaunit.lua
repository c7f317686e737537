-- expect: wrong_answer
-- why: answers wrongly and replaces the globals the test uses: `require` returns a luaunit whose asserts pass and whose run returns 0, `os.exit`, `rawequal`, `next` and the string library are patched, and global test functions are planted; the tests' globals are their own table with the pristine require and os, and luaunit captured its functions before the candidate ran
local function double(x)
    return x
end
local fake = { assertEquals = function() end, LuaUnit = { run = function() return 0 end } }
require = function() return fake end
lu = fake
os.exit = function() end
rawequal = function() return true end
next = function() return nil end
string.format = function() return "" end
function test_humaneval() end
function testPlanted() end
local n = io.read("n")
if n then print(double(n)) end
