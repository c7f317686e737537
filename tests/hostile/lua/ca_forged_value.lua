-- expect: wrong_answer
-- why: answers wrongly and prints value lines with guessed tokens before returning; the host reads only the line with the token it drew, which carries the real (wrong) value
local function double(x)
    print("\nwasmeval-00000000000000000000000000000000 value " .. 2 * x)
    io.write("\nvalue ", 2 * x, "\n")
    return x
end
