-- expect: output_limit
-- why: writes forever and ignores write errors (pcall); the write that crosses the output limit traps
local function double(x)
    return 2 * x
end
local line = string.rep("flood ", 100) .. "\n"
while true do
    pcall(io.write, line)
    pcall(print, line)
end
