/* wasmeval's report lines for C and C++ test programs (linked after the source).
 *
 * An assertion program passes only when the test's `main` ran to its end: wasmeval starts the
 * test's main with `unsigned long long __wasmeval_key = __wasmeval_begin_of_tests();` and inserts
 * `__wasmeval_end_of_tests(__wasmeval_key);` before each `return` of it and before its closing
 * brace, and the host requires the line that writes, "\n<token> end\n", where the token is
 * argv[1], fresh per run and never in the module. A candidate that exits (exit, _Exit, abort,
 * proc_exit, from its function, a constructor or an atexit handler) before that never writes it.
 *
 * Why a key (issue 32): the candidate shares the module and can call these functions too, from a
 * constructor, an atexit handler or the function under test, then exit 0. So the end line is
 * written only for the key that the one call to __wasmeval_begin_of_tests() returned, and that
 * call is refused before every constructor of the program has run (this object's constructor runs
 * after the candidate's: same priority, later in the link) and after a first call, i.e. anywhere
 * but at the start of the test's main. The key lives in main's local (a wasm local, out of the
 * linear memory), mixed from random bytes and the token; what is kept here is a digest of it. A
 * refused call, or an end with a wrong key, refuses every later one: there is one guess. What
 * stays forgeable: a candidate that reads the token (argv) or this object's memory and writes the
 * line itself, as everywhere a test shares the candidate's process.
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
static void write_line(const char *words, size_t length) {
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

/* A `calls` driver's line; never the assertion programs' bare "end", which only
 * __wasmeval_end_of_tests writes. */
void __wasmeval_report(const char *words, size_t length) {
    if (length == 3 && memcmp(words, "end", 3) == 0) {
        return;
    }
    write_line(words, length);
}

void __wasmeval_loaded(void) { write_line("loaded", 6); }
void __wasmeval_done(void) { write_line("done", 4); }

/* The end-of-tests protocol's state: BEFORE_MAIN until the test's main begins, then TESTING until
 * its end; REFUSED for good after a call out of turn. */
enum { BEFORE_MAIN, TESTING, ENDED, REFUSED };
static int state = BEFORE_MAIN;
/* volatile: LLVM's GlobalOpt evaluates a constructor as simple as the one below at compile time,
 * folding its 1 into the initial value, and the flag would be set before any constructor ran. */
static volatile int constructors_ran = 0;
static unsigned long long expected = 0;

/* A 64-bit mix (splitmix64's finaliser): the stored digest does not show the key. */
static unsigned long long mix(unsigned long long x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Runs after the candidate's constructors (and its C++ globals'): same default priority, and this
 * object comes after the source in the link, whose init functions wasm-ld orders by priority, then
 * by input order. Before it, the test's main cannot have begun. */
__attribute__((constructor)) static void __wasmeval_constructors_ran(void) { constructors_ran = 1; }

unsigned long long __wasmeval_begin_of_tests(void) {
    if (state != BEFORE_MAIN || !constructors_ran) {
        state = REFUSED;
        return 0;
    }
    __wasi_size_t argc = 0, size = 0;
    char buffer[4096];
    char *argv[64];
    unsigned long long key = 0;
    if (__wasi_args_sizes_get(&argc, &size) == 0 && argc >= 2 && argc <= 64 && size <= 4096 &&
        __wasi_args_get((uint8_t **)argv, (uint8_t *)buffer) == 0) {
        /* The token's bytes, so that the key differs per run (the random stream is seeded). */
        for (const char *at = argv[1]; *at; at++) {
            key = mix(key ^ (unsigned char)*at);
        }
    }
    volatile unsigned long long random = 0;
    if (__wasi_random_get((uint8_t *)&random, sizeof random) != 0) {
        random = 0;
    }
    key = mix(key ^ random);
    random = 0;
    if (key == 0) {
        key = 1;
    }
    expected = mix(key);
    state = TESTING;
    return key;
}

void __wasmeval_end_of_tests(unsigned long long key) {
    if (state != TESTING || mix(key) != expected) {
        state = REFUSED;
        return;
    }
    state = ENDED;
    write_line("end", 3);
}

_Noreturn void __assert_fail(const char *expr, const char *file, int line, const char *func) {
    fprintf(stderr, "Assertion failed: %s (%s: %s: %d)\n", expr, file, func, line);
    fflush(NULL);
    __builtin_trap();
}
