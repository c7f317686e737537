-- expect: memory_limit
-- why: string.rep asks for 1 GiB at once; the allocation is refused at the memory limit (a Lua error, not a host crash)
local function double(x)
    return 2 * x
end
local s = string.rep("ab", 1 << 29)
print(#s)
