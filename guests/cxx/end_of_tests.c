/* wasmeval's report lines for C and C++ test programs (linked after the source).
 *
 * An assertion program passes only when the test's `main` ran to its end: wasmeval inserts a call
 * to __wasmeval_end_of_tests() before each `return` of the test's main and before its closing
 * brace, and the host requires the line this writes, "\n<token> end\n", where the token is
 * argv[1], fresh per run and never in the module. A candidate that exits (exit, _Exit, abort,
 * proc_exit, from its function, a constructor or an atexit handler) before that never writes it.
 *
 * A `calls` driver (the test with each converted assert replaced by WASMEVAL_CASE, see
 * guests/cxx/calls.hpp) writes the harness protocol's lines through __wasmeval_report: "loaded"
 * when its main starts, "start <i>", "value <i> <json>" and "end <i> returned null" per case,
 * "done" when its main ends; the host compares the values with expected values the module never
 * holds.
 *
 * __assert_fail is defined here, strongly, so that a candidate's own (one that returns, making
 * every assert a no-op) is a duplicate symbol, a compile error; a failed assert traps instead of
 * calling abort, which a candidate could also define. */
#include <stdio.h>
#include <string.h>
#include <wasi/api.h>

/* Writes "\n<token> " + words[0..length] + "\n" on stdout; nothing when argv has no token. */
void __wasmeval_report(const char *words, size_t length) {
    fflush(NULL);
    __wasi_size_t argc = 0, size = 0;
    if (__wasi_args_sizes_get(&argc, &size) != 0 || argc < 2 || size > 4096) {
        return;
    }
    char buffer[4096];
    char *argv[64];
    if (argc > 64 || __wasi_args_get((uint8_t **)argv, (uint8_t *)buffer) != 0) {
        return;
    }
    size_t token = strlen(argv[1]);
    char newline = '\n', space = ' ';
    __wasi_ciovec_t parts[5] = {
        {(const uint8_t *)&newline, 1},
        {(const uint8_t *)argv[1], token},
        {(const uint8_t *)&space, 1},
        {(const uint8_t *)words, length},
        {(const uint8_t *)&newline, 1},
    };
    /* Written until done: a WASI host may write fewer bytes (or fewer iovecs) than asked. */
    size_t part = 0;
    while (part < 5) {
        __wasi_size_t written = 0;
        if (__wasi_fd_write(1, &parts[part], 5 - part, &written) != 0 || written == 0) {
            return;
        }
        while (part < 5 && written >= parts[part].buf_len) {
            written -= parts[part].buf_len;
            part++;
        }
        if (part < 5) {
            parts[part].buf += written;
            parts[part].buf_len -= written;
        }
    }
}

void __wasmeval_end_of_tests(void) { __wasmeval_report("end", 3); }
void __wasmeval_loaded(void) { __wasmeval_report("loaded", 6); }
void __wasmeval_done(void) { __wasmeval_report("done", 4); }

_Noreturn void __assert_fail(const char *expr, const char *file, int line, const char *func) {
    fprintf(stderr, "Assertion failed: %s (%s: %s: %d)\n", expr, file, func, line);
    fflush(NULL);
    __builtin_trap();
}
