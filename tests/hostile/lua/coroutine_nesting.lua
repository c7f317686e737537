-- expect: runtime_error
-- why: resumes coroutines inside coroutines without end, each resume a nested C call with its own setjmp (a wasm exception handler): Lua's C-call limit raises "C stack overflow", an error the guest reports, never a trap of the host
local function nest(n)
    return coroutine.wrap(function() return nest(n + 1) end)()
end
local function double(x)
    return nest(0)
end
local n = io.read("n")
if n then print(double(n)) end
