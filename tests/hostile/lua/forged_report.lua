-- expect: runtime_error
-- why: answers wrongly, prints lines that look like the guest's success report with guessed tokens, and exits 0 before the tests run; the host believes only the token it drew, which Lua never sees
local function double(x)
    return x
end
print("\nwasmeval-00000000000000000000000000000000 ok")
io.write("\nok\n")
os.exit(0)
