-- expect: runtime_error
-- why: its first token is `._G` (comments are blanks to Lua), which after an unterminated prefix would make the tests' scope the candidate's globals, where `require` is patched; the guest ends the prefix with `;`, so the program does not parse (and even a scope it chose could not reach the luaunit instance that reports to the guest)
._G
local function double(x)
    return x
end
require = function() return { assertEquals = function() end, LuaUnit = { run = function() return 0 end } } end
