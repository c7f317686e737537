-- expect: passed
-- why: reads the host's files through every door Lua has (io.open, io.lines, dofile, loadfile, require, package, debug, ../ paths, /proc) and prints what it finds; the guest sees only /job (read-only) and a fresh /tmp, dofile/loadfile/package/debug do not exist, so nothing of the host leaks and the honest answer passes
-- must-not-output: root:x:0:0
local function double(x)
    return 2 * x
end
local found = {}
for _, path in ipairs({ "/etc/passwd", "/proc/self/environ", "/job/../../etc/passwd", "../../../../etc/passwd", "/etc/hostname" }) do
    local f = io.open(path, "r")
    if f then
        found[#found + 1] = f:read("a")
        f:close()
    end
    local ok, lines = pcall(io.lines, path)
    if ok and lines then
        for line in lines do found[#found + 1] = line end
    end
end
for _, name in ipairs({ "dofile", "loadfile", "package", "debug" }) do
    if _G[name] ~= nil then found[#found + 1] = "has " .. name end
end
for _, name in ipairs({ "os", "io", "debug", "package", "ffi" }) do
    local ok, module = pcall(require, name)
    if ok then found[#found + 1] = "required " .. name end
end
io.stderr:write(table.concat(found, "\n"), "\n")
local n = io.read("n")
if n then print(double(n)) end
