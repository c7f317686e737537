/* wasmeval's end-of-tests line for C and C++ assertion programs (linked after the source).
 *
 * An assertion program passes only when the test's `main` ran to its end: wasmeval inserts a call
 * to __wasmeval_end_of_tests() before each `return` of the test's main and before its closing
 * brace, and the host requires the line this writes, "\n<token> end\n", where the token is
 * argv[1], fresh per run and never in the module. A candidate that exits (exit, _Exit, abort,
 * proc_exit, from its function, a constructor or an atexit handler) before that never writes it.
 *
 * __assert_fail is defined here, strongly, so that a candidate's own (one that returns, making
 * every assert a no-op) is a duplicate symbol, a compile error; a failed assert traps instead of
 * calling abort, which a candidate could also define. */
#include <stdio.h>
#include <string.h>
#include <wasi/api.h>

void __wasmeval_end_of_tests(void) {
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
    /* One buffer, written until done: a WASI host may write fewer bytes (or fewer iovecs) than
     * asked. */
    char line[4200];
    size_t length = strlen(argv[1]);
    line[0] = '\n';
    memcpy(line + 1, argv[1], length);
    memcpy(line + 1 + length, " end\n", 5);
    length += 6;
    size_t done = 0;
    while (done < length) {
        __wasi_ciovec_t part = {(const uint8_t *)line + done, length - done};
        __wasi_size_t written = 0;
        if (__wasi_fd_write(1, &part, 1, &written) != 0 || written == 0) {
            return;
        }
        done += written;
    }
}

_Noreturn void __assert_fail(const char *expr, const char *file, int line, const char *func) {
    fprintf(stderr, "Assertion failed: %s (%s: %s: %d)\n", expr, file, func, line);
    fflush(NULL);
    __builtin_trap();
}
