-- The plain-data form of `calls` values for the Lua guest (guests/lua/main.c loads it before the
-- candidate runs, and keeps what it returns where Lua cannot reach it): `decode` turns a case's
-- arguments (a JSON array) into Lua values, `encode` the returned value into JSON, which the
-- host compares with the expected value (the expected value never enters the guest).
--
-- JSON to Lua: null is nil, integers (no `.` or exponent) are Lua integers and other numbers
-- floats, arrays are sequences, objects tables with string keys. Lua to JSON: nil is null; a
-- float is written so that it reads back as the same double (infinities and NaN as
-- `{"$float": "inf"}`, as the other guests write them); an empty table is `[]`; a table whose
-- keys are exactly 1..n is an array, any other an object whose integer keys are written in
-- decimal (the importer, core's formats/lua_asserts.rs, writes expected tables by the same rule).
-- Keys of other types, functions, coroutines and userdata are not plain data: an error.
-- Only raw operations are used, captured when this file loads: a returned value's metatable
-- (`__index`, `__pairs`, `__len`, `__tostring`) takes no part in its encoding.
local type, next, rawget, error, select = type, next, rawget, error, select
local mtype, floor, huge = math.type, math.floor, math.huge
local sformat, sbyte, ssub, sfind, sgsub = string.format, string.byte, string.sub, string.find, string.gsub
local tconcat, tsort, tointeger, tonumber = table.concat, table.sort, math.tointeger, tonumber
local uchar = utf8.char

local M = {}

-- Decoding: the JSON comes from the host (serde_json), so errors are the host's.
local function decoder(text)
    local at = 1
    local value

    local function fail(what)
        error(sformat("calls: bad arguments JSON at byte %d: %s", at, what), 0)
    end

    local function skip()
        at = sfind(text, "[^ \t\r\n]", at) or #text + 1
    end

    local escapes = { ['"'] = '"', ["\\"] = "\\", ["/"] = "/", b = "\b", f = "\f", n = "\n", r = "\r", t = "\t" }

    local function string_value()
        local parts = {}
        at = at + 1
        while true do
            local stop = sfind(text, '["\\]', at)
            if not stop then fail("unterminated string") end
            parts[#parts + 1] = ssub(text, at, stop - 1)
            if ssub(text, stop, stop) == '"' then
                at = stop + 1
                return tconcat(parts)
            end
            local kind = ssub(text, stop + 1, stop + 1)
            if kind == "u" then
                local code = tonumber(ssub(text, stop + 2, stop + 5), 16)
                if not code then fail("bad \\u escape") end
                at = stop + 6
                if code >= 0xD800 and code <= 0xDBFF and ssub(text, at, at + 1) == "\\u" then
                    local low = tonumber(ssub(text, at + 2, at + 5), 16)
                    if low and low >= 0xDC00 and low <= 0xDFFF then
                        code = 0x10000 + (code - 0xD800) * 0x400 + (low - 0xDC00)
                        at = at + 6
                    end
                end
                parts[#parts + 1] = uchar(code)
            else
                local plain = escapes[kind]
                if not plain then fail("bad escape") end
                parts[#parts + 1] = plain
                at = stop + 2
            end
        end
    end

    function value()
        skip()
        local c = ssub(text, at, at)
        if c == "{" then
            local object = {}
            at = at + 1
            skip()
            if ssub(text, at, at) == "}" then
                at = at + 1
                return object
            end
            while true do
                skip()
                if ssub(text, at, at) ~= '"' then fail("expected a key") end
                local key = string_value()
                skip()
                if ssub(text, at, at) ~= ":" then fail("expected ':'") end
                at = at + 1
                object[key] = value()
                skip()
                local sep = ssub(text, at, at)
                at = at + 1
                if sep == "}" then return object end
                if sep ~= "," then fail("expected ',' or '}'") end
            end
        elseif c == "[" then
            local array, n = {}, 0
            at = at + 1
            skip()
            if ssub(text, at, at) == "]" then
                at = at + 1
                return array, 0
            end
            while true do
                n = n + 1
                array[n] = value()
                skip()
                local sep = ssub(text, at, at)
                at = at + 1
                if sep == "]" then return array, n end
                if sep ~= "," then fail("expected ',' or ']'") end
            end
        elseif c == '"' then
            return string_value()
        elseif ssub(text, at, at + 3) == "true" then
            at = at + 4
            return true
        elseif ssub(text, at, at + 4) == "false" then
            at = at + 5
            return false
        elseif ssub(text, at, at + 3) == "null" then
            at = at + 4
            return nil
        end
        local s, e = sfind(text, "^-?%d+%.?%d*[eE]?[-+]?%d*", at)
        if not s then fail("unexpected character") end
        local literal = ssub(text, s, e)
        at = e + 1
        if sfind(literal, "^-?%d+$") then
            local integer = tointeger(tonumber(literal))
            if integer then return integer end
        end
        return tonumber(literal) + 0.0
    end

    return value
end

-- The arguments as a sequence and their count (nil arguments included).
function M.decode(text)
    local value = decoder(text)
    local args, n = value()
    if type(args) ~= "table" or n == nil then
        error("calls: the arguments are not a JSON array", 0)
    end
    return args, n
end

local function encode_string(s)
    return '"' .. sgsub(s, '[%c"\\]', function(c)
        local named = { ['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }
        return named[c] or sformat("\\u%04x", sbyte(c))
    end) .. '"'
end

local function encode_float(x)
    if x ~= x then
        return '{"$float":"nan"}'
    elseif x == huge then
        return '{"$float":"inf"}'
    elseif x == -huge then
        return '{"$float":"-inf"}'
    end
    local text = sformat("%.17g", x)
    -- The shortest of %.15g..%.17g that reads back as x.
    for digits = 15, 16 do
        local shorter = sformat("%." .. digits .. "g", x)
        if tonumber(shorter) == x then
            text = shorter
            break
        end
    end
    if not sfind(text, "[%.eEn]") then
        text = text .. ".0"
    end
    return text
end

local encode

local function encode_table(t, depth)
    if depth > 100 then
        error("calls: the returned value is nested deeper than 100 tables (a cycle?)", 0)
    end
    local count, integers, max = 0, true, 0
    local key = next(t)
    while key ~= nil do
        count = count + 1
        if mtype(key) == "integer" and key >= 1 then
            if key > max then max = key end
        else
            integers = false
            if type(key) ~= "string" and mtype(key) ~= "integer" then
                error("calls: a table key of type " .. type(key) .. " is not plain data", 0)
            end
        end
        key = next(t, key)
    end
    if count == 0 then
        return "[]"
    end
    local parts = {}
    if integers and max == count then
        for i = 1, count do
            parts[i] = encode(rawget(t, i), depth + 1)
        end
        return "[" .. tconcat(parts, ",") .. "]"
    end
    local keys = {}
    key = next(t)
    while key ~= nil do
        keys[#keys + 1] = type(key) == "string" and key or sformat("%d", key)
        key = next(t, key)
    end
    tsort(keys)
    for i, k in next, keys do
        local v = rawget(t, k)
        if v == nil then
            v = rawget(t, tointeger(tonumber(k)) or k)
        end
        parts[i] = encode_string(k) .. ":" .. encode(v, depth + 1)
    end
    return "{" .. tconcat(parts, ",") .. "}"
end

function encode(value, depth)
    local kind = type(value)
    if kind == "nil" then
        return "null"
    elseif kind == "boolean" then
        return value and "true" or "false"
    elseif kind == "number" then
        if mtype(value) == "integer" then
            return sformat("%d", value)
        end
        return encode_float(value)
    elseif kind == "string" then
        return encode_string(value)
    elseif kind == "table" then
        return encode_table(value, depth or 0)
    end
    error("calls: a " .. kind .. " is not plain data", 0)
end

M.encode = function(value)
    return encode(value, 0)
end

return M
