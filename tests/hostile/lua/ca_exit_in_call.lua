-- expect: runtime_error
-- why: prints a forged value line and exits 0 from inside the call: no value line with the token, so the case is "exited before returning a value"
local function double(x)
    print("\nwasmeval-00000000000000000000000000000000 value " .. 2 * x)
    os.exit(0)
end
