-- expect: passed
-- why: looks for process spawning and the environment (io.popen, os.execute, os.getenv, arg, ...) and prints what it finds; io.popen and os.execute do not exist, os.getenv answers nil, `arg` and `...` hold no token, so nothing leaks and the honest answer passes
-- must-not-output: wasmeval-
-- must-not-output: PATH=
local function double(x)
    return 2 * x
end
local report = {}
if io.popen then
    local ok, p = pcall(io.popen, "cat /etc/passwd; env")
    report[#report + 1] = "popen: " .. tostring(ok) .. " " .. tostring(p)
end
if os.execute then
    report[#report + 1] = "execute: " .. tostring(os.execute("touch /tmp/wasmeval-lua-escape"))
end
for _, name in ipairs({ "PATH", "HOME", "WASMEVAL_HOME", "USER" }) do
    local value = os.getenv(name)
    if value then report[#report + 1] = name .. "=" .. value end
end
if arg then
    for i = -3, #arg do report[#report + 1] = tostring(arg[i]) end
end
for i = 1, select("#", ...) do report[#report + 1] = tostring((select(i, ...))) end
print(table.concat(report, "\n"))
local n = io.read("n")
if n then print(double(n)) end
