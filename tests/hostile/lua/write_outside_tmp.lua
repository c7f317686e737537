-- expect: passed
-- why: writes to the job folder, the host's /tmp and /etc, renames and removes the program; /job is read-only, nothing else is reachable, and /tmp is a fresh scratch folder of this execution only, so the host is untouched and the honest answer passes
-- host-path-absent: /tmp/wasmeval-lua-escape
-- host-path-absent: /etc/wasmeval-lua-escape
local function double(x)
    return 2 * x
end
for _, path in ipairs({ "/job/escape.lua", "/tmp/wasmeval-lua-escape", "/etc/wasmeval-lua-escape", "/tmp/../etc/wasmeval-lua-escape" }) do
    local f = io.open(path, "w")
    if f then
        f:write("escaped")
        f:close()
    end
end
os.remove("/job/program.lua")
os.rename("/job/luaunit.lua", "/tmp/luaunit.lua")
local n = io.read("n")
if n then print(double(n)) end
