-- wasmeval's stand-in for luaunit (the part MultiPL-E's Lua tests use): `lu.assertEquals` and
-- friends, and `lu.LuaUnit.run()`, which runs the `test*` functions (and the `test*` methods of
-- `Test*` tables) and returns the number of failed tests, for `os.exit(lu.LuaUnit.run())`.
--
-- guests/lua/main.c loads it with two arguments: the table the tests' globals live in, and a
-- `report(tests, failures, errors)` function of the guest's C code that decides the token's line;
-- that instance's globals (`_ENV`) are a snapshot of the standard names taken before the candidate
-- runs. The candidate's own `require('luaunit')` gets another instance with neither (it then runs
-- the global `test*` functions and reports to no one).
--
-- Comparisons use raw operations only (`rawequal`, `next`, `rawget`, `rawlen`), captured when this
-- file loads, before any of the candidate's code runs: a returned value's metatable (`__eq`,
-- `__index`, `__pairs`, `__len`, `__tostring`) takes no part in judging it, and patching the
-- globals later changes nothing here.
local tests_scope, report = ...

local type, next, pairs, rawequal, rawget, rawlen = type, next, pairs, rawequal, rawget, rawlen
local error, pcall, select, tostring = error, pcall, select, tostring
local getmetatable, setmetatable = getmetatable, setmetatable
local mtype, mabs, huge = math.type, math.abs, math.huge
local sformat, srep, ssub, sfind, slower = string.format, string.rep, string.sub, string.find, string.lower
local tconcat, tsort, tinsert = table.concat, table.sort, table.insert
local iowrite, stderr = io.write, io.stderr
local stderr_write = stderr.write

local M = { VERSION = "wasmeval-1", EPS = 2 ^ -52 }

-- A failed assertion (as opposed to an error): its metatable is private.
local Failure = {}

-- Raises a failure whose message starts where the assertion was called (`level` 1 is the caller
-- of the function calling `fail`).
local function fail(message, level)
    -- error ← pcall ← fail ← assert* ← its caller: the assert's caller is level 4 + level - 1.
    local _, positioned = pcall(error, message, 3 + (level or 1))
    error(setmetatable({ message = positioned }, Failure), 0)
end

-- The printed form of a value, bounded in depth and length; no metamethod runs.
local function prettystr(value, depth, seen)
    local kind = type(value)
    if kind == "string" then
        if #value > 200 then
            return sformat("%q", ssub(value, 1, 200)) .. "..."
        end
        return sformat("%q", value)
    elseif kind == "number" then
        if mtype(value) == "integer" then
            return sformat("%d", value)
        end
        return sformat("%.17g", value)
    elseif kind ~= "table" then
        return kind == "nil" and "nil" or kind == "boolean" and (value and "true" or "false")
            or sformat("<%s>", kind)
    end
    seen = seen or {}
    depth = depth or 0
    if rawget(seen, value) then
        return "<cycle>"
    end
    if depth > 8 then
        return "{...}"
    end
    seen[value] = true
    local parts, count, length = {}, 0, rawlen(value)
    for i = 1, length do
        count = count + 1
        if count > 50 then
            parts[#parts + 1] = "..."
            break
        end
        parts[#parts + 1] = prettystr(rawget(value, i), depth + 1, seen)
    end
    local keyed = {}
    local key = next(value)
    while key ~= nil and count <= 50 do
        if not (mtype(key) == "integer" and key >= 1 and key <= length) then
            count = count + 1
            local shown = type(key) == "string" and sfind(key, "^[%a_][%w_]*$") and key
                or "[" .. prettystr(key, depth + 1, seen) .. "]"
            keyed[#keyed + 1] = shown .. "=" .. prettystr(rawget(value, key), depth + 1, seen)
        end
        key = next(value, key)
    end
    tsort(keyed)
    for i = 1, #keyed do
        parts[#parts + 1] = keyed[i]
    end
    seen[value] = nil
    return "{" .. tconcat(parts, ", ") .. "}"
end
M.prettystr = prettystr

-- Deep equality as luaunit's assertEquals: same type, numbers by value (1 == 1.0), tables key by
-- key (keys by raw equality) and value by value; `within` compares numbers with a margin.
local function equals(a, b, within, visiting)
    if type(a) ~= type(b) then
        return false
    end
    if type(a) == "number" and within then
        return mabs(a - b) <= within
    end
    if type(a) ~= "table" or rawequal(a, b) then
        return rawequal(a, b)
    end
    -- Pairs under comparison: a cycle compares equal where it closes.
    visiting = visiting or {}
    local pairs_of_a = rawget(visiting, a)
    if pairs_of_a and rawget(pairs_of_a, b) then
        return true
    end
    if not pairs_of_a then
        pairs_of_a = {}
        visiting[a] = pairs_of_a
    end
    pairs_of_a[b] = true
    local key = next(a)
    while key ~= nil do
        local other = rawget(b, key)
        if other == nil or not equals(rawget(a, key), other, within, visiting) then
            return false
        end
        key = next(a, key)
    end
    key = next(b)
    while key ~= nil do
        if rawget(a, key) == nil then
            return false
        end
        key = next(b, key)
    end
    return true
end
M.private = { equals = equals }

local function show_both(actual, expected)
    return "expected: " .. prettystr(expected) .. ", actual: " .. prettystr(actual)
end

local function with_extra(message, extra)
    if extra ~= nil then
        return tostring(extra) .. "\n" .. message
    end
    return message
end

function M.assertEquals(actual, expected, extra)
    if not equals(actual, expected) then
        fail(with_extra(show_both(actual, expected), extra))
    end
end

function M.assertNotEquals(actual, expected, extra)
    if equals(actual, expected) then
        fail(with_extra("received the same value as not expected: " .. prettystr(actual), extra))
    end
end

function M.assertAlmostEquals(actual, expected, margin, extra)
    margin = margin or M.EPS
    if type(margin) ~= "number" or margin < 0 then
        error("assertAlmostEquals: margin must be a non-negative number", 2)
    end
    if type(actual) ~= type(expected) or (type(actual) ~= "number" and type(actual) ~= "table") then
        error("assertAlmostEquals: must supply only number or table arguments", 2)
    end
    if not equals(actual, expected, margin) then
        fail(with_extra(sformat("values differ beyond allowed tolerance of %s\n%s",
            prettystr(margin), show_both(actual, expected)), extra))
    end
end

function M.assertNotAlmostEquals(actual, expected, margin, extra)
    margin = margin or M.EPS
    if type(actual) == "number" and type(expected) == "number" and mabs(actual - expected) <= margin then
        fail(with_extra(sformat("values are within the tolerance of %s\n%s",
            prettystr(margin), show_both(actual, expected)), extra))
    end
end

function M.assertTrue(value, extra)
    if value ~= true then
        fail(with_extra("expected: true, actual: " .. prettystr(value), extra))
    end
end

function M.assertFalse(value, extra)
    if value ~= false then
        fail(with_extra("expected: false, actual: " .. prettystr(value), extra))
    end
end

function M.assertEvalToTrue(value, extra)
    if not value then
        fail(with_extra("expected: a value evaluating to true, actual: " .. prettystr(value), extra))
    end
end

function M.assertEvalToFalse(value, extra)
    if value then
        fail(with_extra("expected: false or nil, actual: " .. prettystr(value), extra))
    end
end

function M.assertNil(value, extra)
    if value ~= nil then
        fail(with_extra("expected: nil, actual: " .. prettystr(value), extra))
    end
end

function M.assertNotNil(value, extra)
    if value == nil then
        fail(with_extra("expected a value, received nil", extra))
    end
end

function M.assertIs(actual, expected, extra)
    if not rawequal(actual, expected) then
        fail(with_extra("expected the same object\n" .. show_both(actual, expected), extra))
    end
end

function M.assertNotIs(actual, expected, extra)
    if rawequal(actual, expected) then
        fail(with_extra("expected a different object than " .. prettystr(actual), extra))
    end
end

-- Each item of `actual` matched with one equal item of `expected`, in any order.
function M.assertItemsEquals(actual, expected, extra)
    local ok = type(actual) == "table" and type(expected) == "table"
    if ok then
        local left, used = {}, {}
        for _, v in next, expected do
            left[#left + 1] = v
        end
        for _, v in next, actual do
            local found = false
            for i = 1, #left do
                if not used[i] and equals(v, left[i]) then
                    used[i], found = true, true
                    break
                end
            end
            if not found then
                ok = false
                break
            end
        end
        for i = 1, #left do
            ok = ok and used[i] == true
        end
    end
    if not ok then
        fail(with_extra("content of the tables is not identical\n" .. show_both(actual, expected), extra))
    end
end

function M.assertStrContains(text, part, is_pattern, extra)
    if type(text) ~= "string" or type(part) ~= "string" or not sfind(text, part, 1, not is_pattern) then
        fail(with_extra(sformat("could not find %s in %s", prettystr(part), prettystr(text)), extra))
    end
end

function M.assertStrIContains(text, part, extra)
    if type(text) ~= "string" or type(part) ~= "string" or not sfind(slower(text), slower(part), 1, true) then
        fail(with_extra(sformat("could not find %s in %s", prettystr(part), prettystr(text)), extra))
    end
end

function M.assertError(f, ...)
    if pcall(f, ...) then
        fail("expected an error when calling the function, but none was raised")
    end
end

function M.assertErrorMsgContains(part, f, ...)
    local ok, message = pcall(f, ...)
    if ok then
        fail("expected an error containing " .. prettystr(part) .. ", but none was raised")
    end
    if type(message) ~= "string" or not sfind(message, part, 1, true) then
        fail("expected an error containing " .. prettystr(part) .. ", received " .. prettystr(message))
    end
end

local function type_check(expected_type)
    return function(value, extra)
        if type(value) ~= expected_type then
            fail(with_extra(sformat("expected: a %s value, actual: type %s, value %s",
                expected_type, type(value), prettystr(value)), extra))
        end
    end
end
M.assertIsNumber = type_check("number")
M.assertIsString = type_check("string")
M.assertIsTable = type_check("table")
M.assertIsBoolean = type_check("boolean")
M.assertIsFunction = type_check("function")

function M.fail(message)
    fail(message or "failure")
end

-- luaunit's other spellings.
local aliases = {}
for name, f in next, M do
    if type(f) == "function" and sfind(name, "^assert") then
        -- assertEquals -> assert_equals
        aliases[(name:gsub("(%u)", function(c) return "_" .. slower(c) end))] = f
    end
end
for name, f in next, aliases do
    M[name] = f
end
M.assertIsNil, M.assertNotIsNil = M.assertNil, M.assertNotNil
M.assertIsTrue, M.assertIsFalse = M.assertTrue, M.assertFalse

-- The tests to run: `test*` functions and `Test*` tables' `test*` methods, in name order.
local function collect(scope)
    local found, names = {}, {}
    local name = next(scope)
    while name ~= nil do
        if type(name) == "string" and slower(ssub(name, 1, 4)) == "test" then
            names[#names + 1] = name
        end
        name = next(scope, name)
    end
    tsort(names)
    for _, n in next, names do
        local value = rawget(scope, n)
        if type(value) == "function" then
            found[#found + 1] = { name = n, run = value }
        elseif type(value) == "table" then
            local methods = {}
            local method = next(value)
            while method ~= nil do
                if type(method) == "string" and slower(ssub(method, 1, 4)) == "test"
                    and type(rawget(value, method)) == "function" then
                    methods[#methods + 1] = method
                end
                method = next(value, method)
            end
            tsort(methods)
            for _, m in next, methods do
                local instance, f = value, rawget(value, m)
                found[#found + 1] = { name = n .. "." .. m, run = function() return f(instance) end }
            end
        end
    end
    return found
end

-- An error value as a line of text; no metamethod of a table error runs.
local function describe(err)
    if type(err) == "string" then
        return err
    elseif type(err) == "number" then
        return prettystr(err)
    end
    return sformat("(error object is a %s value)", type(err))
end

M.LuaUnit = {}
local running = false

function M.LuaUnit.run()
    if running then
        error("LuaUnit.run is already running", 2)
    end
    running = true
    local scope = tests_scope or _G
    local tests = collect(scope)
    local failures, errors = 0, 0
    for _, test in next, tests do
        local ok, err = pcall(test.run)
        if not ok then
            -- rawequal: an error whose `__metatable` has an `__eq` must not pass for a failure.
            if type(err) == "table" and rawequal(getmetatable(err), Failure) then
                failures = failures + 1
                stderr_write(stderr, sformat("%s failed: %s\n", test.name, describe(rawget(err, "message"))))
            else
                errors = errors + 1
                stderr_write(stderr, sformat("%s error: %s\n", test.name, describe(err)))
            end
        end
    end
    iowrite(sformat("Ran %d tests, %d successes, %d failures, %d errors\n",
        #tests, #tests - failures - errors, failures, errors))
    if #tests == 0 then
        iowrite("no test found\n")
    end
    running = false
    if report then
        report(#tests, failures, errors)
    end
    if #tests == 0 then
        return 1
    end
    return failures + errors
end

M.LuaUnit.run_tests = M.LuaUnit.run

return M
