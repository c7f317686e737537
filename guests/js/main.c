/* wasmeval's JavaScript guest: QuickJS-NG as a WASI command that runs one program.
 *
 *     js [--prelude FILE] [--token TOKEN] [--tests FILE --bridge FILE [--bind NAME]]
 *        [--call NAME --args JSON] PROGRAM
 *
 * The prelude (guests/js/prelude.js, written into the job folder by the runner) is evaluated first
 * as a function expression and called with a private object of native functions (writing to
 * stdout/stderr, reading stdin, exiting, the timers' clock, the bridge's `cross`); it defines
 * `console`, `process`, `require` and timers and returns what this file calls: the
 * `AssertionError` class, the timers' `peekTimer`/`fireTimer`/`done`, `decodeArgs` and
 * `serialize` (for `calls` cases) and `helpers` (for the bridge). Then PROGRAM runs as a global
 * script, and the job queue and the timers are drained (timers in virtual time: the wait before the
 * next one due passes on the guest's clock, nanosleep, which the host answers at once unless it
 * takes virtual time past the limit).
 *
 * With `--tests FILE --bridge FILE` (an assertion case) the test code does not run where the
 * candidate does: it gets a realm of its own, a second JSContext of the same runtime with fresh
 * intrinsics (`Math`, `JSON`, `Array.prototype`, the iterators...) and its own prelude, made after
 * PROGRAM ran in the first, so nothing the candidate redefines, globals, prototypes or built-ins,
 * is what the tests use. Both realms load the bridge (guests/js/bridge.js) after the prelude; the
 * tests reach the candidate's names (those their code mentions, and `--bind NAME`, the task's
 * entry point, even where their realm has one) through it, and it only carries text:
 * `natives.cross(text)` hands a string to the other realm's `receive`, which answers a string.
 * Values cross as plain data, the candidate's functions and other objects by reference (the tests
 * hold proxies that ask the candidate's realm for each operation), the tests' functions by
 * reference, to be called and nothing else. No object of one realm is ever handed to the other:
 * only strings pass here, and strings belong to the runtime, not to a realm.
 *
 * With `--call NAME --args JSON` (a `calls` case; needs the prelude and a token), NAME (an
 * identifier: a global binding, `const` ones included) is then called with the arguments JSON
 * decodes to, and the return value is reported as `\n<token> value <json>\n` in the prelude's
 * plain-data form; the host compares it with the expected value, which never enters the guest.
 *
 * The engine has no `std`/`os` modules (quickjs-libc is not linked) and no module loader: the only
 * host things JavaScript reaches are the natives below. No file but PROGRAM, the tests, the prelude
 * and the bridge is read, and stdin only when the program asks for it.
 *
 * Ends: exit 0 when everything ran; an uncaught exception (in a script, a job or a timer) or an
 * unhandled promise rejection prints `Uncaught ...` on stderr and exits 1. With `--token`, the
 * last thing written to stdout is `\n<token> ok\n` on success, or `\n<token> assertion\n` before
 * exiting 1 when the uncaught exception is an instance of the prelude's `AssertionError` (of the
 * realm it was thrown in). The token stays in this C code: JavaScript never sees argv
 * (`process.argv` is fixed), so a program that exits early or prints cannot write the line.
 */
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "quickjs.h"

static const char *token;

/* A realm: a context and what its prelude returned. [0] is the candidate's (the only one for
 * whole programs and `calls` cases), [1] the tests' (assertion cases). */
typedef struct {
    JSContext *ctx;
    JSValue assertion_error, peek_timer, fire_timer, done, receive, bind, decode_args, serialize;
} Realm;
static Realm realms[2];
static int realm_count;

/* The timers' virtual clock (milliseconds since the start) and the order timers were set in,
 * shared by the realms so that their timers interleave as in one program. */
static double timer_clock;
static double timer_tickets;

/* Rejected promises with no handler yet, oldest first (`handled` once a handler came). Kept in C,
 * not in a JavaScript array, so that no prototype's setter sees them. */
typedef struct {
    JSContext *ctx;
    JSValue promise, reason;
    int handled;
} Rejection;
static Rejection *rejections;
static size_t rejection_count, rejection_capacity;

static void finish(int code) {
    fflush(stdout);
    fflush(stderr);
    exit(code);
}

static char *read_file(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file) {
        return NULL;
    }
    size_t capacity = 1 << 16, used = 0;
    char *data = malloc(capacity + 1);
    while (data) {
        size_t n = fread(data + used, 1, capacity - used, file);
        used += n;
        if (used < capacity) {
            break;
        }
        capacity *= 2;
        char *bigger = realloc(data, capacity + 1);
        if (!bigger) {
            free(data);
        }
        data = bigger;
    }
    fclose(file);
    if (!data) {
        return NULL;
    }
    data[used] = '\0';
    *length = used;
    return data;
}

static Realm *realm_of(JSContext *ctx) {
    for (int i = 0; i < realm_count; i++) {
        if (realms[i].ctx == ctx) {
            return &realms[i];
        }
    }
    return NULL;
}

/* natives.write(fd, string): fd 1 stdout, 2 stderr. */
static JSValue native_write(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    int fd = 1;
    if (argc < 2 || JS_ToInt32(ctx, &fd, argv[0])) {
        return JS_ThrowTypeError(ctx, "write(fd, text)");
    }
    size_t length;
    const char *text = JS_ToCStringLen(ctx, &length, argv[1]);
    if (!text) {
        return JS_EXCEPTION;
    }
    fwrite(text, 1, length, fd == 2 ? stderr : stdout);
    JS_FreeCString(ctx, text);
    return JS_UNDEFINED;
}

/* natives.readStdin(): all of stdin as a string (UTF-8), read once; later calls return "". */
static JSValue native_read_stdin(JSContext *ctx, JSValueConst this_val, int argc,
                                 JSValueConst *argv) {
    static int done;
    if (done) {
        return JS_NewString(ctx, "");
    }
    done = 1;
    size_t capacity = 1 << 16, used = 0;
    char *data = malloc(capacity);
    while (data) {
        size_t n = fread(data + used, 1, capacity - used, stdin);
        used += n;
        if (n == 0) {
            break;
        }
        if (used == capacity) {
            capacity *= 2;
            char *bigger = realloc(data, capacity);
            if (!bigger) {
                free(data);
            }
            data = bigger;
        }
    }
    if (!data) {
        return JS_ThrowOutOfMemory(ctx);
    }
    JSValue text = JS_NewStringLen(ctx, data, used);
    free(data);
    return text;
}

/* natives.exit(code): flushes and ends the process, without the token line. */
static JSValue native_exit(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    int code = 0;
    if (argc > 0 && !JS_IsUndefined(argv[0])) {
        JS_ToInt32(ctx, &code, argv[0]);
    }
    finish(code);
    return JS_UNDEFINED;
}

/* natives.clock(): the timers' virtual time in milliseconds. */
static JSValue native_clock(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    return JS_NewFloat64(ctx, timer_clock);
}

/* natives.ticket(): the next number of a sequence shared by the realms (timers' order). */
static JSValue native_ticket(JSContext *ctx, JSValueConst this_val, int argc,
                             JSValueConst *argv) {
    return JS_NewFloat64(ctx, ++timer_tickets);
}

/* Waits `ms` milliseconds of the guest's clock (WASI's poll_oneoff, which the host answers in
 * virtual time: nothing waits on the host, and time past the execution's limit is a timeout). */
static void sleep_ms(double ms) {
    if (ms > 0) {
        struct timespec wait;
        wait.tv_sec = (time_t)(ms / 1000);
        wait.tv_nsec = (long)((ms - (double)wait.tv_sec * 1000) * 1e6);
        nanosleep(&wait, NULL);
    }
}

/* Prints an uncaught exception as node does (`Uncaught ` and the stack, or the value) on stderr
 * and exits 1, after the token's `assertion` line when it is an assertion error of the realm of
 * `ctx`. */
static void die_with(JSContext *ctx, JSValue exception, const char *what) {
    Realm *realm = realm_of(ctx);
    int assertion = realm && JS_IsObject(realm->assertion_error) &&
                    JS_IsInstanceOf(ctx, exception, realm->assertion_error) == 1;
    /* Reading `stack` or converting to a string runs no candidate code for plain errors; for
     * other values it may (a getter, toString): its own exceptions are ignored. */
    const char *text = NULL;
    if (JS_IsError(exception)) {
        JSValue stack = JS_GetPropertyStr(ctx, exception, "stack");
        const char *head = JS_ToCString(ctx, exception);
        const char *trace = JS_IsString(stack) ? JS_ToCString(ctx, stack) : NULL;
        fprintf(stderr, "%s: %s\n%s", what, head ? head : "(error)", trace ? trace : "");
        if (head) JS_FreeCString(ctx, head);
        if (trace) JS_FreeCString(ctx, trace);
        JS_FreeValue(ctx, stack);
    } else {
        text = JS_ToCString(ctx, exception);
        fprintf(stderr, "%s: %s\n", what, text ? text : "(a value that cannot be printed)");
        if (text) JS_FreeCString(ctx, text);
    }
    fflush(stderr);
    if (token && assertion) {
        fprintf(stdout, "\n%s assertion\n", token);
    }
    finish(1);
}

static void die(JSContext *ctx, const char *what) {
    die_with(ctx, JS_GetException(ctx), what);
}

/* natives.cross(text), in realm `magic`: the other realm's `receive(text)`, a string. Only
 * strings pass: a string is the runtime's, not a realm's, so neither realm gets an object of the
 * other's (and with it a way to its intrinsics). `receive` answers every request, errors
 * included, in text; an exception out of it is the engine failing (memory), which ends the run. */
static JSValue native_cross(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv,
                            int magic) {
    if (realm_count < 2 || argc < 1 || !JS_IsString(argv[0])) {
        return JS_ThrowTypeError(ctx, "cross(text): no other realm");
    }
    Realm *other = &realms[1 - magic];
    JSValue reply = JS_Call(other->ctx, other->receive, JS_UNDEFINED, 1, argv);
    if (JS_IsException(reply)) {
        die(other->ctx, "Uncaught");
    }
    if (!JS_IsString(reply)) {
        JS_FreeValue(other->ctx, reply);
        return JS_ThrowTypeError(ctx, "cross(text): the other realm answered something else");
    }
    return reply;
}

static void track_rejection(JSContext *ctx, JSValueConst promise, JSValueConst reason,
                            bool is_handled, void *opaque) {
    if (!is_handled) {
        if (rejection_count == rejection_capacity) {
            size_t capacity = rejection_capacity ? 2 * rejection_capacity : 16;
            Rejection *bigger = realloc(rejections, capacity * sizeof *bigger);
            if (!bigger) {
                fprintf(stderr, "js: out of memory\n");
                finish(1);
            }
            rejections = bigger;
            rejection_capacity = capacity;
        }
        rejections[rejection_count++] = (Rejection){
            ctx, JS_DupValue(ctx, promise), JS_DupValue(ctx, reason), 0};
        return;
    }
    /* A handler came later: forget the promise. */
    for (size_t i = 0; i < rejection_count; i++) {
        Rejection *r = &rejections[i];
        if (!r->handled && JS_IsStrictEqual(ctx, r->promise, promise)) {
            r->handled = 1;
            JS_FreeValue(r->ctx, r->promise);
            JS_FreeValue(r->ctx, r->reason);
            r->promise = r->reason = JS_UNDEFINED;
        }
    }
}

/* Dies with the first rejection still unhandled, if any. */
static void check_rejections(void) {
    for (size_t i = 0; i < rejection_count; i++) {
        if (!rejections[i].handled) {
            die_with(rejections[i].ctx, JS_DupValue(rejections[i].ctx, rejections[i].reason),
                     "Uncaught (in promise)");
        }
    }
}

/* `value[index]` as a number (an element of the arrays `peekTimer` returns). */
static double number_at(JSContext *ctx, JSValueConst value, uint32_t index) {
    double number = 0;
    JSValue element = JS_GetPropertyUint32(ctx, value, index);
    JS_ToFloat64(ctx, &number, element);
    JS_FreeValue(ctx, element);
    return number;
}

/* Runs every pending job (of either realm), then the next timer due in either realm, until
 * neither is left; then each realm's `done` (which exits with `process.exitCode` if set). */
static void drain(void) {
    JSRuntime *rt = JS_GetRuntime(realms[0].ctx);
    for (;;) {
        JSContext *job_ctx;
        int ran;
        while ((ran = JS_ExecutePendingJob(rt, &job_ctx)) != 0) {
            if (ran < 0) {
                die(job_ctx, "Uncaught");
            }
        }
        check_rejections();
        /* The next timer: immediates first, then by due time, then by the order they were set. */
        int next = -1;
        double best[3] = {0, 0, 0};
        for (int i = 0; i < realm_count; i++) {
            JSContext *ctx = realms[i].ctx;
            if (!JS_IsFunction(ctx, realms[i].peek_timer)) {
                continue;
            }
            JSValue due = JS_Call(ctx, realms[i].peek_timer, JS_UNDEFINED, 0, NULL);
            if (JS_IsException(due)) {
                die(ctx, "Uncaught");
            }
            if (JS_IsArray(due)) {
                double key[3] = {number_at(ctx, due, 0), number_at(ctx, due, 1),
                                 number_at(ctx, due, 2)};
                if (next < 0 || key[0] < best[0] || (key[0] == best[0] && key[1] < best[1]) ||
                    (key[0] == best[0] && key[1] == best[1] && key[2] < best[2])) {
                    next = i;
                    memcpy(best, key, sizeof best);
                }
            }
            JS_FreeValue(ctx, due);
        }
        if (next < 0) {
            for (int i = 0; i < realm_count; i++) {
                if (JS_IsFunction(realms[i].ctx, realms[i].done)) {
                    JSValue result = JS_Call(realms[i].ctx, realms[i].done, JS_UNDEFINED, 0, NULL);
                    if (JS_IsException(result)) {
                        die(realms[i].ctx, "Uncaught");
                    }
                    JS_FreeValue(realms[i].ctx, result);
                }
            }
            return;
        }
        /* The wait passes on the guest's clock (virtual time): a timer due past the time limit
         * ends the run as a timeout, as a real wait would, instead of firing at once. */
        if (best[0] == 1 && best[1] > timer_clock) {
            sleep_ms(best[1] - timer_clock);
            timer_clock = best[1];
        }
        JSContext *ctx = realms[next].ctx;
        JSValue result = JS_Call(ctx, realms[next].fire_timer, JS_UNDEFINED, 0, NULL);
        if (JS_IsException(result)) {
            die(ctx, "Uncaught");
        }
        JS_FreeValue(ctx, result);
    }
}

/* Calls the global `name` with the decoded `args_json` and reports its value (see the top). */
static void call_entry(Realm *realm, const char *name, const char *args_json) {
    JSContext *ctx = realm->ctx;
    JSValue text = JS_NewString(ctx, args_json);
    JSValue args = JS_Call(ctx, realm->decode_args, JS_UNDEFINED, 1, &text);
    JS_FreeValue(ctx, text);
    if (JS_IsException(args)) {
        die(ctx, "js: arguments");
    }
    /* The name is an identifier (the host checks): evaluating it finds `const` bindings too. */
    JSValue fn = JS_Eval(ctx, name, strlen(name), "<call>", JS_EVAL_TYPE_GLOBAL);
    if (JS_IsException(fn)) {
        die(ctx, "Uncaught");
    }
    if (!JS_IsFunction(ctx, fn)) {
        fprintf(stderr, "TypeError: %s is not a function\n", name);
        finish(1);
    }
    int64_t count = 0;
    JS_GetLength(ctx, args, &count);
    if (count > 255) {
        count = 255;
    }
    JSValue values[255];
    for (int64_t i = 0; i < count; i++) {
        values[i] = JS_GetPropertyUint32(ctx, args, (uint32_t)i);
    }
    JSValue result = JS_Call(ctx, fn, JS_UNDEFINED, (int)count, values);
    for (int64_t i = 0; i < count; i++) {
        JS_FreeValue(ctx, values[i]);
    }
    if (JS_IsException(result)) {
        die(ctx, "Uncaught");
    }
    drain();
    JSValue json = JS_Call(ctx, realm->serialize, JS_UNDEFINED, 1, &result);
    if (JS_IsException(json)) {
        die(ctx, "Uncaught");
    }
    const char *line = JS_ToCString(ctx, json);
    if (!line) {
        die(ctx, "Uncaught");
    }
    fprintf(stdout, "\n%s value %s\n", token, line);
    JS_FreeCString(ctx, line);
}

static JSValue eval_file(JSContext *ctx, const char *path, const char *name) {
    size_t length;
    char *source = read_file(path, &length);
    if (!source) {
        fprintf(stderr, "js: cannot read %s\n", path);
        finish(2);
    }
    JSValue value = JS_Eval(ctx, source, length, name, JS_EVAL_TYPE_GLOBAL);
    free(source);
    return value;
}

/* Code every realm loads (the prelude, the bridge), as bytecode written from the first realm's
 * compilation for the second to read: compiling the prelude is most of what a realm costs (about
 * 90% of its instructions), reading bytecode a small part. Reading makes the functions anew, in
 * the reading realm (a function's bytecode names the realm it runs in), so nothing of the first
 * realm's is shared. */
typedef struct {
    uint8_t *bytes;
    size_t size;
} Code;
static Code prelude_code, bridge_code;

/* The function expression in the file at `path` evaluated in `ctx`: from `code` when an earlier
 * realm kept it, else compiled (and kept in `code` when `keep`). */
static JSValue load_code(JSContext *ctx, const char *path, const char *name, Code *code, int keep) {
    JSValue compiled;
    if (code->bytes) {
        compiled = JS_ReadObject(ctx, code->bytes, code->size, JS_READ_OBJ_BYTECODE);
    } else {
        size_t length;
        char *source = read_file(path, &length);
        if (!source) {
            fprintf(stderr, "js: cannot read %s\n", path);
            finish(2);
        }
        compiled = JS_Eval(ctx, source, length, name, JS_EVAL_TYPE_GLOBAL | JS_EVAL_FLAG_COMPILE_ONLY);
        free(source);
        if (!JS_IsException(compiled) && keep) {
            /* Without the source text (which only `Function.prototype.toString` of the harness's
             * own functions would show): less to write and read. Line numbers stay. */
            code->bytes = JS_WriteObject(ctx, &code->size, compiled,
                                         JS_WRITE_OBJ_BYTECODE | JS_WRITE_OBJ_STRIP_SOURCE);
            if (!code->bytes) {
                JS_FreeValue(ctx, compiled);
                return JS_EXCEPTION;
            }
        }
    }
    if (JS_IsException(compiled)) {
        return compiled;
    }
    return JS_EvalFunction(ctx, compiled);
}

/* A new realm in `rt` with the prelude, and the bridge when there is one, run in it as `role`
 * ("alone", "candidate" or "tests"); without a prelude, a bare context. `keep_code`: a later
 * realm will load the same code. */
static Realm *new_realm(JSRuntime *rt, const char *prelude, const char *bridge, const char *role,
                        int keep_code) {
    Realm *realm = &realms[realm_count];
    JSContext *ctx = JS_NewContext(rt);
    if (!ctx) {
        fprintf(stderr, "js: cannot create a JavaScript context\n");
        finish(2);
    }
    *realm = (Realm){ctx,          JS_UNDEFINED, JS_UNDEFINED, JS_UNDEFINED, JS_UNDEFINED,
                     JS_UNDEFINED, JS_UNDEFINED, JS_UNDEFINED, JS_UNDEFINED};
    int index = realm_count;
    if (prelude) {
        JSValue setup = load_code(ctx, prelude, "prelude.js", &prelude_code, keep_code);
        if (JS_IsException(setup)) {
            die(ctx, "js: prelude");
        }
        JSValue natives = JS_NewObject(ctx);
        JS_SetPropertyStr(ctx, natives, "write", JS_NewCFunction(ctx, native_write, "write", 2));
        JS_SetPropertyStr(ctx, natives, "readStdin",
                          JS_NewCFunction(ctx, native_read_stdin, "readStdin", 0));
        JS_SetPropertyStr(ctx, natives, "exit", JS_NewCFunction(ctx, native_exit, "exit", 1));
        JS_SetPropertyStr(ctx, natives, "clock", JS_NewCFunction(ctx, native_clock, "clock", 0));
        JS_SetPropertyStr(ctx, natives, "ticket",
                          JS_NewCFunction(ctx, native_ticket, "ticket", 0));
        JS_SetPropertyStr(ctx, natives, "cross",
                          JS_NewCFunctionMagic(ctx, native_cross, "cross", 1,
                                               JS_CFUNC_generic_magic, index));
        JS_SetPropertyStr(ctx, natives, "role", JS_NewString(ctx, role));
        JSValue exported = JS_Call(ctx, setup, JS_UNDEFINED, 1, &natives);
        JS_FreeValue(ctx, setup);
        if (JS_IsException(exported)) {
            die(ctx, "js: prelude");
        }
        realm->assertion_error = JS_GetPropertyStr(ctx, exported, "AssertionError");
        realm->peek_timer = JS_GetPropertyStr(ctx, exported, "peekTimer");
        realm->fire_timer = JS_GetPropertyStr(ctx, exported, "fireTimer");
        realm->done = JS_GetPropertyStr(ctx, exported, "done");
        realm->decode_args = JS_GetPropertyStr(ctx, exported, "decodeArgs");
        realm->serialize = JS_GetPropertyStr(ctx, exported, "serialize");
        if (bridge) {
            JSValue link = load_code(ctx, bridge, "bridge.js", &bridge_code, keep_code);
            if (JS_IsException(link)) {
                die(ctx, "js: bridge");
            }
            JSValue args[2] = {JS_GetPropertyStr(ctx, exported, "helpers"), natives};
            JSValue joined = JS_Call(ctx, link, JS_UNDEFINED, 2, args);
            JS_FreeValue(ctx, args[0]);
            JS_FreeValue(ctx, link);
            if (JS_IsException(joined)) {
                die(ctx, "js: bridge");
            }
            realm->receive = JS_GetPropertyStr(ctx, joined, "receive");
            realm->bind = JS_GetPropertyStr(ctx, joined, "bind");
            JS_FreeValue(ctx, joined);
        }
        JS_FreeValue(ctx, natives);
        JS_FreeValue(ctx, exported);
    }
    realm_count++;
    return realm;
}

#define USAGE                                                                                  \
    "usage: js [--prelude FILE] [--token TOKEN] [--tests FILE --bridge FILE [--bind NAME]] "     \
    "[--call NAME --args JSON] PROGRAM\n"

int main(int argc, char **argv) {
    const char *prelude = NULL, *program = NULL, *call = NULL, *call_args = NULL;
    const char *tests = NULL, *bind = NULL, *bridge = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--prelude") && i + 1 < argc) {
            prelude = argv[++i];
        } else if (!strcmp(argv[i], "--token") && i + 1 < argc) {
            token = argv[++i];
        } else if (!strcmp(argv[i], "--call") && i + 1 < argc) {
            call = argv[++i];
        } else if (!strcmp(argv[i], "--args") && i + 1 < argc) {
            call_args = argv[++i];
        } else if (!strcmp(argv[i], "--tests") && i + 1 < argc) {
            tests = argv[++i];
        } else if (!strcmp(argv[i], "--bind") && i + 1 < argc) {
            bind = argv[++i];
        } else if (!strcmp(argv[i], "--bridge") && i + 1 < argc) {
            bridge = argv[++i];
        } else if (!program) {
            program = argv[i];
        } else {
            fprintf(stderr, USAGE);
            return 2;
        }
    }
    if (!program || (call && (!call_args || !prelude || !token)) ||
        (tests && (!prelude || !bridge || call)) || ((bind || bridge) && !tests)) {
        fprintf(stderr, USAGE);
        return 2;
    }
    JSRuntime *rt = JS_NewRuntime();
    if (!rt) {
        fprintf(stderr, "js: cannot create a JavaScript runtime\n");
        return 2;
    }
    JS_SetHostPromiseRejectionTracker(rt, track_rejection, NULL);

    Realm *candidate =
        new_realm(rt, prelude, bridge, tests ? "candidate" : "alone", tests != NULL);
    JSValue result = eval_file(candidate->ctx, program, "program.js");
    if (JS_IsException(result)) {
        die(candidate->ctx, "Uncaught");
    }
    JS_FreeValue(candidate->ctx, result);

    if (tests) {
        /* The tests' realm, made after the candidate ran (which changes nothing in it). */
        Realm *judge = new_realm(rt, prelude, bridge, "tests", 0);
        size_t length;
        char *source = read_file(tests, &length);
        if (!source) {
            fprintf(stderr, "js: cannot read %s\n", tests);
            finish(2);
        }
        JSValue args[2] = {JS_NewStringLen(judge->ctx, source, length),
                           bind ? JS_NewString(judge->ctx, bind) : JS_UNDEFINED};
        JSValue bound = JS_Call(judge->ctx, judge->bind, JS_UNDEFINED, 2, args);
        JS_FreeValue(judge->ctx, args[0]);
        JS_FreeValue(judge->ctx, args[1]);
        if (JS_IsException(bound)) {
            die(judge->ctx, "Uncaught");
        }
        JS_FreeValue(judge->ctx, bound);
        result = JS_Eval(judge->ctx, source, length, "tests.js", JS_EVAL_TYPE_GLOBAL);
        free(source);
        if (JS_IsException(result)) {
            die(judge->ctx, "Uncaught");
        }
        JS_FreeValue(judge->ctx, result);
    }
    drain();
    if (call) {
        call_entry(candidate, call, call_args);
        finish(0);
    }
    if (token) {
        fprintf(stdout, "\n%s ok\n", token);
    }
    finish(0);
    return 0;
}
