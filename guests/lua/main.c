/* wasmeval's Lua guest: Lua 5.4 as a WASI command that runs one program.
 *
 *     lua [--luaunit FILE] [--token TOKEN --tests FILE --scope NAME] PROGRAM
 *     lua --calls FILE --token TOKEN --call NAME --args JSON PROGRAM
 *
 * The Lua state has the base, coroutine, table, string, math, utf8, io and os libraries, made safe
 * here: no `debug`, no `package` (our own `require` knows one module, `luaunit`, read from
 * --luaunit, guests/lua/luaunit.lua), no `dofile`/`loadfile`/`string.dump`, `load` reads text
 * only (a binary chunk can crash the VM), no `io.popen`, `os.execute`, `os.tmpname`; `os.getenv`
 * answers nil, and `os.exit` and `os.clock` are ours. Files are the WASI preopens' only: the job folder,
 * read-only, and a fresh /tmp.
 *
 * With --tests (an assertion case, MultiPL-E's test code in FILE), PROGRAM and the tests run as
 * one chunk, as MultiPL-E concatenates them (so the tests see the candidate's `local function`),
 * but the tests' globals are a table of their own (`local _ENV = <scope>` between the two parts,
 * the local named NAME, a random name the host draws per run, so the candidate's code, which is
 * compiled before it and cannot name it, never reaches it). The tests' names are not the
 * candidate's to bind: the scope holds a snapshot of the standard names taken before the
 * candidate runs (every global, the library tables as copies, so `ipairs = f`, `math.abs = f` or
 * `string.rep = f` change nothing there), and only other names (the candidate's own globals)
 * fall through to the candidate's globals; `require` gives the tests their own luaunit, `lu` and
 * `test_*` live in the scope. The string metatable, the one metatable all strings share, answers
 * a method of the standard library from the same copy and shows the candidate a stand-in
 * (`getmetatable("")`) whose `__index` serves the other names (`function string.f` then `s:f()`,
 * or an `__index` function for `s[i]`). The luaunit instance the tests require runs on the
 * snapshot alone, reports to this C code alone (`report`, passed to it at load), and runs the
 * `test*` functions of the tests' table only.
 *
 * With --call (a `calls` case), PROGRAM runs as one chunk ending in `return NAME` (so a `local
 * function` is found as MultiPL-E's prompts declare it), then the function is called with the
 * arguments JSON decodes to (guests/lua/calls.lua, loaded before the candidate and kept in this
 * C code) and its first result is reported as `\n<token> value <json>\n`; the host compares it
 * with the expected value, which never enters the guest.
 *
 * Ends: an error that no one catches prints `lua: <message>` on stderr and exits 1. With --tests,
 * when the program ends (returning, or by `os.exit`), the token's line is written last: `ok` when
 * luaunit's run reported at least one test and no failure or error, `assertion` when it reported
 * failures only (exiting 1, or os.exit's code when it is not 0). Nothing is written when the
 * run had not reported (the candidate exited first, or from inside a test) or reported errors:
 * the token is in argv only, which Lua never sees (no `arg` table), so a program that exits early
 * or prints a line cannot pass.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

static const char *token;
static int testing;
/* What the tests' luaunit reported: whether it did, and its counts. */
static int reported;
static lua_Integer tests_run, failures, errors;

static void finish(int code) {
    fflush(stdout);
    fflush(stderr);
    exit(code);
}

/* The token's line and the exit, for a program that ended with `code`. */
static void end_program(int code) {
    fflush(stdout);
    if (testing) {
        if (reported && tests_run > 0 && failures == 0 && errors == 0) {
            fprintf(stdout, "\n%s ok\n", token);
        } else if (reported && failures > 0 && errors == 0) {
            fprintf(stdout, "\n%s assertion\n", token);
            if (code == 0) {
                code = 1;
            }
        } else if (reported && code == 0) {
            code = 1;
        }
    }
    finish(code);
}

/* os.exit([code]): true is 0, false 1, a number itself. Never closes the state (no finalizer runs
 * after the verdict is written). */
static int lua_exit_program(lua_State *L) {
    int code;
    if (lua_isboolean(L, 1)) {
        code = lua_toboolean(L, 1) ? 0 : 1;
    } else {
        code = (int)luaL_optinteger(L, 1, 0);
    }
    end_program(code);
    return 0;
}

/* When the program started, for os.clock. */
static struct timespec started;

/* os.clock(): seconds since the program started, on the guest's monotonic clock (lua-src's own
 * os.clock raises "not supported on WASI": WASI has no process CPU-time clock). The host's clock
 * is virtual, so a busy wait on it costs fuel, not time. */
static int lua_clock(lua_State *L) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    lua_pushnumber(L, (lua_Number)(now.tv_sec - started.tv_sec) +
                          (lua_Number)(now.tv_nsec - started.tv_nsec) / 1e9);
    return 1;
}

/* os.getenv(name): the guest has no environment. */
static int lua_no_getenv(lua_State *L) {
    luaL_checkstring(L, 1);
    lua_pushnil(L);
    return 1;
}

/* load(chunk [, name [, mode [, env]]]) with mode forced to "t": the upvalue is Lua's load. */
static int lua_load_text(lua_State *L) {
    if (lua_gettop(L) < 3) {
        lua_settop(L, 3);
    }
    lua_pushliteral(L, "t");
    lua_replace(L, 3);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* report(tests, failures, errors): the tests' luaunit, at the end of its run. Only the first
 * report counts. */
static int lua_report(lua_State *L) {
    if (!reported) {
        tests_run = luaL_checkinteger(L, 1);
        failures = luaL_checkinteger(L, 2);
        errors = luaL_checkinteger(L, 3);
        reported = 1;
    }
    return 0;
}

static const char *luaunit_path;

/* Loads a luaunit instance from --luaunit: the chunk is called with the tests' table and the
 * report function (both nil for the candidate's own instance) and returns the module. With
 * `env_index`, the chunk's globals are that table instead of the state's. */
static void load_luaunit(lua_State *L, int tests_index, int with_report, int env_index) {
    if (!luaunit_path) {
        luaL_error(L, "module 'luaunit' not found: the guest was started without --luaunit");
    }
    if (luaL_loadfilex(L, luaunit_path, "t") != LUA_OK) {
        lua_error(L);
    }
    if (env_index) {
        /* A main chunk's only upvalue is its _ENV. */
        lua_pushvalue(L, env_index);
        lua_setupvalue(L, -2, 1);
    }
    if (tests_index) {
        lua_pushvalue(L, tests_index);
    } else {
        lua_pushnil(L);
    }
    if (with_report) {
        lua_pushcfunction(L, lua_report);
    } else {
        lua_pushnil(L);
    }
    lua_call(L, 2, 1);
}

/* require(name): only `luaunit`, the instance in upvalue 1 (loaded on first use when absent). */
static int lua_require(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    if (strcmp(name, "luaunit") != 0) {
        return luaL_error(L, "module '%s' not found: the sandbox has no modules but luaunit", name);
    }
    if (lua_isnil(L, lua_upvalueindex(1))) {
        load_luaunit(L, 0, 0, 0);
        lua_replace(L, lua_upvalueindex(1));
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    return 1;
}

/* Sets t[name] = nil for the table at the top. */
static void drop(lua_State *L, const char *name) {
    lua_pushnil(L);
    lua_setfield(L, -2, name);
}

/* The safe libraries (see the top) into the globals. */
static void open_libraries(lua_State *L) {
    static const luaL_Reg libraries[] = {
        {LUA_GNAME, luaopen_base},        {LUA_COLIBNAME, luaopen_coroutine},
        {LUA_TABLIBNAME, luaopen_table},  {LUA_STRLIBNAME, luaopen_string},
        {LUA_MATHLIBNAME, luaopen_math},  {LUA_UTF8LIBNAME, luaopen_utf8},
        {LUA_IOLIBNAME, luaopen_io},      {LUA_OSLIBNAME, luaopen_os},
        {NULL, NULL},
    };
    for (const luaL_Reg *library = libraries; library->func; library++) {
        luaL_requiref(L, library->name, library->func, 1);
        lua_pop(L, 1);
    }
    lua_pushglobaltable(L);
    drop(L, "dofile");
    drop(L, "loadfile");
    lua_getfield(L, -1, "load");
    lua_pushcclosure(L, lua_load_text, 1);
    lua_setfield(L, -2, "load");
    lua_pushnil(L);
    lua_pushcclosure(L, lua_require, 1);
    lua_setfield(L, -2, "require");

    lua_getfield(L, -1, "string");
    drop(L, "dump");
    lua_pop(L, 1);
    lua_getfield(L, -1, "io");
    drop(L, "popen");
    lua_pop(L, 1);
    lua_getfield(L, -1, "os");
    drop(L, "execute");
    drop(L, "tmpname");
    lua_pushcfunction(L, lua_no_getenv);
    lua_setfield(L, -2, "getenv");
    lua_pushcfunction(L, lua_exit_program);
    lua_setfield(L, -2, "exit");
    lua_pushcfunction(L, lua_clock);
    lua_setfield(L, -2, "clock");
    lua_pop(L, 2);
}

/* A shallow copy of the table at `index`, pushed. */
static void push_copy(lua_State *L, int index) {
    index = lua_absindex(L, index);
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, index)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -4);
    }
}

/* The standard names as they are now, before the candidate runs: every global but `_G`, each
 * library table (string, table, math, ...) as a copy of its own, pushed. A candidate that sets
 * `ipairs`, `tostring` or `math.abs` afterwards changes the globals and the shared library
 * tables, not this. */
static void push_standard_snapshot(lua_State *L) {
    lua_newtable(L);
    int snapshot = lua_gettop(L);
    lua_pushglobaltable(L);
    int globals = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, globals)) {
        if (lua_rawequal(L, -1, globals)) {
            lua_pop(L, 1);
            continue;
        }
        if (lua_type(L, -1) == LUA_TTABLE) {
            push_copy(L, -1);
            lua_replace(L, -2);
        }
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, snapshot);
    }
    lua_pop(L, 1);
}

/* The string metatable's __index once the candidate has set the `__index` of what
 * `getmetatable("")` shows it (upvalues: the snapshot's copy of the string library, and the table
 * behind what it is shown): a name of the copy first, so that `s:rep(n)` in the tests stays the
 * library's; any other name as the candidate's `__index` says, a table, or a function called with
 * the string and the key, as Lua would (`s[i]` idioms). */
static int lua_string_index(lua_State *L) {
    lua_settop(L, 2);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) {
        return 1;
    }
    lua_pop(L, 1);
    lua_pushliteral(L, "__index");
    switch (lua_rawget(L, lua_upvalueindex(2))) {
    case LUA_TNIL:
        return 1;
    case LUA_TFUNCTION:
        lua_pushvalue(L, 1);
        lua_pushvalue(L, 2);
        lua_call(L, 2, 1);
        return 1;
    default:
        lua_pushvalue(L, 2);
        lua_gettable(L, -2);
        return 1;
    }
}

/* __newindex of what `getmetatable("")` shows (upvalues: the table behind it, the real metatable,
 * the snapshot's copy of the string library): the field is kept behind; a new `__index` makes the
 * real metatable answer through lua_string_index from then on. */
static int lua_shown_newindex(lua_State *L) {
    lua_settop(L, 3);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 3);
    lua_rawset(L, lua_upvalueindex(1));
    if (lua_type(L, 2) == LUA_TSTRING && strcmp(lua_tostring(L, 2), "__index") == 0) {
        lua_pushvalue(L, lua_upvalueindex(3));
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_pushcclosure(L, lua_string_index, 2);
        lua_setfield(L, lua_upvalueindex(2), "__index");
    }
    return 0;
}

/* __pairs of what `getmetatable("")` shows (upvalues: the table behind it, `next`): the fields
 * behind it. */
static int lua_shown_pairs(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushnil(L);
    return 3;
}

/* Strings share one metatable, which the candidate could rewrite (its `__index` decides what
 * `s:format()` in the tests calls, its `__add` what `"1" + 1` gives). From here on the real one
 * keeps its arithmetic and looks methods up in `library` (the snapshot's copy of the string
 * library), whose misses fall through to the candidate's `string` (`function string.f` makes
 * `s:f()`); `getmetatable` shows the candidate an empty table reading from and writing to a copy
 * (`__metatable`), where setting `__index` serves the names the library does not have (see
 * lua_string_index; until then methods cost one table lookup, as in plain Lua). Changing its
 * other fields changes nothing, and `rawset` on it reaches neither. */
static void guard_string_metatable(lua_State *L, int library) {
    library = lua_absindex(L, library);
    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);
    int meta = lua_gettop(L);
    push_copy(L, meta);
    int behind = lua_gettop(L);
    /* The library's misses: the candidate's `string`, as `__index` first names it. */
    lua_newtable(L);
    lua_getfield(L, meta, "__index");
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, library);
    lua_pushvalue(L, library);
    lua_setfield(L, meta, "__index");
    /* What getmetatable("") answers. */
    lua_newtable(L);
    int shown = lua_gettop(L);
    lua_newtable(L);
    lua_pushvalue(L, behind);
    lua_setfield(L, -2, "__index");
    lua_pushvalue(L, behind);
    lua_pushvalue(L, meta);
    lua_pushvalue(L, library);
    lua_pushcclosure(L, lua_shown_newindex, 3);
    lua_setfield(L, -2, "__newindex");
    lua_pushvalue(L, behind);
    lua_getglobal(L, "next");
    lua_pushcclosure(L, lua_shown_pairs, 2);
    lua_setfield(L, -2, "__pairs");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, shown);
    lua_setfield(L, meta, "__metatable");
    lua_pop(L, 3);
}

/* The tests' table (see the top), pushed: the standard names from a snapshot taken now, before
 * the candidate runs; reads of other names fall through to the globals; `_G` is the table
 * itself; `require` gives the tests' own luaunit instance, which runs on a copy of the
 * snapshot. */
static void push_tests_scope(lua_State *L) {
    push_standard_snapshot(L);
    int scope = lua_gettop(L);
    lua_getfield(L, scope, LUA_STRLIBNAME);
    guard_string_metatable(L, -1);
    lua_pop(L, 1);
    /* luaunit's globals: the snapshot alone, nothing falls through to the candidate's. */
    push_copy(L, scope);
    int luaunit_env = lua_gettop(L);
    lua_pushvalue(L, luaunit_env);
    lua_setfield(L, luaunit_env, "_G");
    lua_newtable(L);
    lua_pushglobaltable(L);
    lua_setfield(L, -2, "__index");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, scope);
    lua_pushvalue(L, scope);
    lua_setfield(L, scope, "_G");
    load_luaunit(L, scope, 1, luaunit_env);
    lua_pushcclosure(L, lua_require, 1);
    lua_setfield(L, scope, "require");
    lua_pop(L, 1);
}

/* __wasmeval_scope(): the tests' table, once (it then leaves the globals). The chunk's first
 * words call it, before any of the candidate's code runs. */
static int lua_take_scope(lua_State *L) {
    lua_pushnil(L);
    lua_setglobal(L, "__wasmeval_scope");
    lua_pushvalue(L, lua_upvalueindex(1));
    return 1;
}

static char *read_file(lua_State *L, const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file) {
        luaL_error(L, "cannot read %s", path);
    }
    luaL_Buffer buffer;
    luaL_buffinit(L, &buffer);
    size_t n;
    do {
        char *space = luaL_prepbuffer(&buffer);
        n = fread(space, 1, LUAL_BUFFERSIZE, file);
        luaL_addsize(&buffer, n);
    } while (n == LUAL_BUFFERSIZE);
    fclose(file);
    luaL_pushresult(&buffer);
    return (char *)lua_tolstring(L, -1, length);
}

struct job {
    const char *program, *tests, *scope, *calls, *call, *args;
};

/* Loads calls.lua and leaves its module at the top. */
static void load_calls(lua_State *L, const char *path) {
    if (luaL_loadfilex(L, path, "t") != LUA_OK) {
        lua_error(L);
    }
    lua_call(L, 0, 1);
}

/* The `calls` case of the job (see the top): the program's value of `name`, called with the
 * decoded arguments, its result encoded after the token. */
static int run_call(lua_State *L, struct job *job) {
    load_calls(L, job->calls);
    int calls = lua_gettop(L);
    luaL_Buffer source;
    luaL_buffinit(L, &source);
    size_t length;
    read_file(L, job->program, &length);
    luaL_addvalue(&source);
    lua_pushfstring(L, "\nreturn %s\n", job->call);
    luaL_addvalue(&source);
    luaL_pushresult(&source);
    const char *text = lua_tolstring(L, -1, &length);
    if (luaL_loadbufferx(L, text, length, "=program.lua", "t") != LUA_OK) {
        return lua_error(L);
    }
    lua_call(L, 0, 1);
    if (!lua_isfunction(L, -1)) {
        return luaL_error(L, "%s is not a function (a %s value)", job->call, luaL_typename(L, -1));
    }
    int function = lua_gettop(L);
    lua_getfield(L, calls, "decode");
    lua_pushstring(L, job->args);
    lua_call(L, 1, 2);
    lua_Integer count = lua_tointeger(L, -1);
    lua_pop(L, 1);
    int args = lua_gettop(L);
    luaL_checkstack(L, (int)count + 4, "too many arguments");
    lua_pushvalue(L, function);
    for (lua_Integer i = 1; i <= count; i++) {
        lua_geti(L, args, i);
    }
    lua_call(L, (int)count, 1);
    int result = lua_gettop(L);
    lua_getfield(L, calls, "encode");
    lua_pushvalue(L, result);
    lua_call(L, 1, 1);
    const char *json = lua_tostring(L, -1);
    fflush(stdout);
    fprintf(stdout, "\n%s value %s\n", token, json ? json : "null");
    return 0;
}

/* Runs the job, in protected mode (the state's first call). */
static int run(lua_State *L) {
    struct job *job = lua_touserdata(L, 1);
    open_libraries(L);
    if (job->call) {
        return run_call(L, job);
    }
    if (!job->tests) {
        if (luaL_loadfilex(L, job->program, "t") != LUA_OK) {
            return lua_error(L);
        }
        lua_call(L, 0, 0);
        return 0;
    }
    push_tests_scope(L);
    lua_pushcclosure(L, lua_take_scope, 1);
    lua_setglobal(L, "__wasmeval_scope");
    /* One chunk, its lines the program's, a line break, then the tests' (as MultiPL-E joins them: the
     * prefix and the scope's declaration share the lines of the program's and the tests' starts).
     * The `;`s end the prefix's statements, so the program's first characters cannot extend them
     * (`.x` after the call would make the scope another table). */
    luaL_Buffer source;
    luaL_buffinit(L, &source);
    lua_pushfstring(L, "local %s = __wasmeval_scope(); ", job->scope);
    luaL_addvalue(&source);
    size_t length;
    read_file(L, job->program, &length);
    luaL_addvalue(&source);
    lua_pushfstring(L, "\nlocal _ENV = %s; ", job->scope);
    luaL_addvalue(&source);
    read_file(L, job->tests, &length);
    luaL_addvalue(&source);
    luaL_pushresult(&source);
    const char *text = lua_tolstring(L, -1, &length);
    if (luaL_loadbufferx(L, text, length, "=program.lua", "t") != LUA_OK) {
        return lua_error(L);
    }
    lua_call(L, 0, 0);
    return 0;
}

/* The message of the error at the top, with a traceback (lua.c's msghandler). */
static int message_handler(lua_State *L) {
    const char *message = lua_tostring(L, 1);
    if (message == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) {
            return 1;
        }
        message = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, message, 1);
    return 1;
}

static int is_name(const char *text) {
    if (!text || !*text || (*text >= '0' && *text <= '9')) {
        return 0;
    }
    for (; *text; text++) {
        char c = *text;
        if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) {
            return 0;
        }
    }
    return 1;
}

int main(int argc, char **argv) {
    static const char usage[] =
        "usage: lua [--luaunit FILE] [--token TOKEN --tests FILE --scope NAME] PROGRAM\n"
        "       lua --calls FILE --token TOKEN --call NAME --args JSON PROGRAM\n";
    struct job job = {0};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--luaunit") && i + 1 < argc) {
            luaunit_path = argv[++i];
        } else if (!strcmp(argv[i], "--token") && i + 1 < argc) {
            token = argv[++i];
        } else if (!strcmp(argv[i], "--tests") && i + 1 < argc) {
            job.tests = argv[++i];
        } else if (!strcmp(argv[i], "--scope") && i + 1 < argc) {
            job.scope = argv[++i];
        } else if (!strcmp(argv[i], "--calls") && i + 1 < argc) {
            job.calls = argv[++i];
        } else if (!strcmp(argv[i], "--call") && i + 1 < argc) {
            job.call = argv[++i];
        } else if (!strcmp(argv[i], "--args") && i + 1 < argc) {
            job.args = argv[++i];
        } else if (!job.program) {
            job.program = argv[i];
        } else {
            fputs(usage, stderr);
            return 2;
        }
    }
    if (!job.program || (job.tests && (!token || !is_name(job.scope) || !luaunit_path)) ||
        (job.call && (job.tests || !token || !is_name(job.call) || !job.args || !job.calls))) {
        fputs(usage, stderr);
        return 2;
    }
    testing = job.tests != NULL;
    clock_gettime(CLOCK_MONOTONIC, &started);
    lua_State *L = luaL_newstate();
    if (!L) {
        fputs("lua: cannot create a Lua state\n", stderr);
        return 2;
    }
    lua_pushcfunction(L, message_handler);
    lua_pushcfunction(L, run);
    lua_pushlightuserdata(L, &job);
    if (lua_pcall(L, 1, 0, 1) != LUA_OK) {
        const char *message = lua_tostring(L, -1);
        fflush(stdout);
        fprintf(stderr, "lua: %s\n", message ? message : "(error object is not a string)");
        end_program(1);
    }
    end_program(0);
    return 0;
}
