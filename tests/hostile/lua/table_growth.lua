-- expect: memory_limit
-- why: grows a table of tables without end at the top level, and catches the memory error to try again: the state cannot allocate past --memory, and the program ends with the error
local t = {}
local block = string.rep("x", 4096)
local function grow()
    local i = #t
    while true do
        i = i + 1
        t[i] = { i, block .. i }
    end
end
for _ = 1, 3 do
    pcall(grow)
end
grow()
local function double(x)
    return 2 * x
end
