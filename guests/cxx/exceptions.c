/* The C++ exception entry points that Debian's wasm32 libc++abi lacks (it is built without
 * exception support, and WASI preview 1 modules have no unwinder).
 *
 * wasmeval compiles C++ with -fexceptions so that programs containing `try`/`catch`/`throw` compile
 * (with -fno-exceptions they are compile errors). Without an exception-handling model the wasm
 * backend drops the `catch` handlers, so a `throw` can never be caught: it reaches __cxa_throw,
 * which says so on stderr and aborts (a trap: the case is a runtime_error, as for an uncaught
 * exception natively). Every definition is weak, so a program that defines one itself keeps its own.
 *
 * Compiled once per toolchain detection into the project sysroot (runner/src/toolchain/clang.rs)
 * and linked into every C++ module that throws. No headers: it must not depend on anything but
 * the target.
 */
typedef __SIZE_TYPE__ size_t;

void *malloc(size_t size);
void free(void *pointer);
_Noreturn void abort(void);
long write(int fd, const void *bytes, size_t count);

static void say(const char *text) {
    size_t length = 0;
    while (text[length]) {
        length++;
    }
    (void)write(2, text, length);
}

__attribute__((weak)) void *__cxa_allocate_exception(size_t size) {
    void *object = malloc(size ? size : 1);
    if (!object) {
        say("terminate: out of memory allocating an exception\n");
        abort();
    }
    return object;
}

__attribute__((weak)) void __cxa_free_exception(void *object) { free(object); }

/* type_info is {vtable, mangled name} in the Itanium C++ ABI. */
__attribute__((weak, noreturn)) void __cxa_throw(void *object, void *type, void (*destructor)(void *)) {
    (void)object;
    (void)destructor;
    say("terminate: exception thrown (exceptions cannot be caught in this sandbox)");
    if (type) {
        const char *name = ((const char *const *)type)[1];
        if (name) {
            say(": type ");
            say(name);
        }
    }
    say("\n");
    abort();
}

__attribute__((weak, noreturn)) void __cxa_rethrow(void) {
    say("terminate: exception rethrown (exceptions cannot be caught in this sandbox)\n");
    abort();
}
