/* wasmeval's JavaScript guest: QuickJS-NG as a WASI command that runs one program.
 *
 *     js [--prelude FILE] [--token TOKEN] [--call NAME --args JSON] PROGRAM
 *
 * The prelude (guests/js/prelude.js, written into the job folder by the runner) is evaluated first
 * as a function expression and called with a private object of native functions (writing to
 * stdout/stderr, reading stdin, exiting); it defines `console`, `process`, `require` and timers and
 * returns `{ AssertionError, runTimer, decodeArgs, serialize }`. Then PROGRAM runs as a global
 * script, and the job queue and the timers are drained (timers in virtual time: the wait before
 * the next one due passes on the guest's clock, natives.sleep, which the host answers at once
 * unless it takes virtual time past the limit).
 *
 * With `--call NAME --args JSON` (a `calls` case; needs the prelude and a token), NAME (an
 * identifier: a global binding, `const` ones included) is then called with the arguments JSON
 * decodes to, and the return value is reported as `\n<token> value <json>\n` in the prelude's
 * plain-data form; the host compares it with the expected value, which never enters the guest.
 *
 * The engine has no `std`/`os` modules (quickjs-libc is not linked) and no module loader: the only
 * host things JavaScript reaches are the natives below. No file but PROGRAM and the prelude is
 * read, and stdin only when the program asks for it.
 *
 * Ends: exit 0 when everything ran; an uncaught exception (in the script, a job or a timer) or an
 * unhandled promise rejection prints `Uncaught ...` on stderr and exits 1. With `--token`, the
 * last thing written to stdout is `\n<token> ok\n` on success, or `\n<token> assertion\n` before
 * exiting 1 when the uncaught exception is an instance of the prelude's `AssertionError`. The
 * token stays in this C code: JavaScript never sees argv (`process.argv` is fixed), so a program
 * that exits early or prints cannot write the line.
 */
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "quickjs.h"

static const char *token;
static JSValue assertion_error = JS_UNDEFINED;
static JSValue run_timer = JS_UNDEFINED;
static JSValue decode_args = JS_UNDEFINED;
static JSValue serialize = JS_UNDEFINED;
/* Rejected promises with no handler yet, oldest first: `[promise, reason]` pairs, `null` once
 * handled. */
static JSValue unhandled = JS_UNDEFINED;

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

/* natives.sleep(ms): waits `ms` milliseconds of the guest's clock (WASI's poll_oneoff, which the
 * host answers in virtual time: nothing waits on the host, and time past the execution's limit is
 * a timeout). Timers call it before running the next one due. */
static JSValue native_sleep(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    double ms = 0;
    if (argc > 0 && JS_ToFloat64(ctx, &ms, argv[0]) == 0 && ms > 0) {
        struct timespec wait;
        wait.tv_sec = (time_t)(ms / 1000);
        wait.tv_nsec = (long)((ms - (double)wait.tv_sec * 1000) * 1e6);
        nanosleep(&wait, NULL);
    }
    return JS_UNDEFINED;
}

/* Prints an uncaught exception as node does (`Uncaught ` and the stack, or the value) on stderr
 * and exits 1, after the token's `assertion` line when it is an assertion error. */
static void die_with(JSContext *ctx, JSValue exception, const char *what) {
    int assertion = JS_IsObject(assertion_error) &&
                    JS_IsInstanceOf(ctx, exception, assertion_error) == 1;
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

static void track_rejection(JSContext *ctx, JSValueConst promise, JSValueConst reason,
                            bool is_handled, void *opaque) {
    if (!JS_IsArray(unhandled)) {
        return;
    }
    int64_t length = 0;
    JS_GetLength(ctx, unhandled, &length);
    if (!is_handled) {
        JSValue pair = JS_NewArray(ctx);
        JS_SetPropertyUint32(ctx, pair, 0, JS_DupValue(ctx, promise));
        JS_SetPropertyUint32(ctx, pair, 1, JS_DupValue(ctx, reason));
        JS_SetPropertyUint32(ctx, unhandled, (uint32_t)length, pair);
        return;
    }
    /* A handler came later: forget the promise. */
    for (int64_t i = 0; i < length; i++) {
        JSValue pair = JS_GetPropertyUint32(ctx, unhandled, (uint32_t)i);
        JSValue held = JS_GetPropertyUint32(ctx, pair, 0);
        int same = JS_IsStrictEqual(ctx, held, promise);
        JS_FreeValue(ctx, held);
        JS_FreeValue(ctx, pair);
        if (same) {
            JS_SetPropertyUint32(ctx, unhandled, (uint32_t)i, JS_NULL);
        }
    }
}

/* Dies with the first rejection still unhandled, if any. */
static void check_rejections(JSContext *ctx) {
    int64_t length = 0;
    JS_GetLength(ctx, unhandled, &length);
    for (int64_t i = 0; i < length; i++) {
        JSValue pair = JS_GetPropertyUint32(ctx, unhandled, (uint32_t)i);
        if (JS_IsArray(pair)) {
            die_with(ctx, JS_GetPropertyUint32(ctx, pair, 1), "Uncaught (in promise)");
        }
        JS_FreeValue(ctx, pair);
    }
}

/* Runs every pending job, then the next timer, until neither is left. */
static void drain(JSContext *ctx) {
    JSRuntime *rt = JS_GetRuntime(ctx);
    for (;;) {
        JSContext *job_ctx;
        int ran;
        while ((ran = JS_ExecutePendingJob(rt, &job_ctx)) != 0) {
            if (ran < 0) {
                die(job_ctx, "Uncaught");
            }
        }
        check_rejections(ctx);
        if (!JS_IsFunction(ctx, run_timer)) {
            return;
        }
        JSValue more = JS_Call(ctx, run_timer, JS_UNDEFINED, 0, NULL);
        if (JS_IsException(more)) {
            die(ctx, "Uncaught");
        }
        int again = JS_ToBool(ctx, more);
        JS_FreeValue(ctx, more);
        if (!again) {
            return;
        }
    }
}

/* Calls the global `name` with the decoded `args_json` and reports its value (see the top). */
static void call_entry(JSContext *ctx, const char *name, const char *args_json) {
    JSValue text = JS_NewString(ctx, args_json);
    JSValue args = JS_Call(ctx, decode_args, JS_UNDEFINED, 1, &text);
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
    drain(ctx);
    JSValue json = JS_Call(ctx, serialize, JS_UNDEFINED, 1, &result);
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

int main(int argc, char **argv) {
    const char *prelude = NULL, *program = NULL, *call = NULL, *call_args = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--prelude") && i + 1 < argc) {
            prelude = argv[++i];
        } else if (!strcmp(argv[i], "--token") && i + 1 < argc) {
            token = argv[++i];
        } else if (!strcmp(argv[i], "--call") && i + 1 < argc) {
            call = argv[++i];
        } else if (!strcmp(argv[i], "--args") && i + 1 < argc) {
            call_args = argv[++i];
        } else if (!program) {
            program = argv[i];
        } else {
            fprintf(stderr, "usage: js [--prelude FILE] [--token TOKEN] [--call NAME --args JSON] PROGRAM\n");
            return 2;
        }
    }
    if (!program || (call && (!call_args || !prelude || !token))) {
        fprintf(stderr, "usage: js [--prelude FILE] [--token TOKEN] [--call NAME --args JSON] PROGRAM\n");
        return 2;
    }
    JSRuntime *rt = JS_NewRuntime();
    JSContext *ctx = rt ? JS_NewContext(rt) : NULL;
    if (!ctx) {
        fprintf(stderr, "js: cannot create a JavaScript context\n");
        return 2;
    }
    unhandled = JS_NewArray(ctx);
    JS_SetHostPromiseRejectionTracker(rt, track_rejection, NULL);

    if (prelude) {
        JSValue setup = eval_file(ctx, prelude, "prelude.js");
        if (JS_IsException(setup)) {
            die(ctx, "js: prelude");
        }
        JSValue natives = JS_NewObject(ctx);
        JS_SetPropertyStr(ctx, natives, "write", JS_NewCFunction(ctx, native_write, "write", 2));
        JS_SetPropertyStr(ctx, natives, "readStdin",
                          JS_NewCFunction(ctx, native_read_stdin, "readStdin", 0));
        JS_SetPropertyStr(ctx, natives, "exit", JS_NewCFunction(ctx, native_exit, "exit", 1));
        JS_SetPropertyStr(ctx, natives, "sleep", JS_NewCFunction(ctx, native_sleep, "sleep", 1));
        JSValue exported = JS_Call(ctx, setup, JS_UNDEFINED, 1, &natives);
        JS_FreeValue(ctx, natives);
        JS_FreeValue(ctx, setup);
        if (JS_IsException(exported)) {
            die(ctx, "js: prelude");
        }
        assertion_error = JS_GetPropertyStr(ctx, exported, "AssertionError");
        run_timer = JS_GetPropertyStr(ctx, exported, "runTimer");
        decode_args = JS_GetPropertyStr(ctx, exported, "decodeArgs");
        serialize = JS_GetPropertyStr(ctx, exported, "serialize");
        JS_FreeValue(ctx, exported);
    }

    JSValue result = eval_file(ctx, program, "program.js");
    if (JS_IsException(result)) {
        die(ctx, "Uncaught");
    }
    JS_FreeValue(ctx, result);
    drain(ctx);
    if (call) {
        call_entry(ctx, call, call_args);
        finish(0);
    }
    if (token) {
        fprintf(stdout, "\n%s ok\n", token);
    }
    finish(0);
    return 0;
}
