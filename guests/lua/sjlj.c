/* The runtime of clang's wasm setjmp/longjmp lowering (`-mllvm -wasm-enable-sjlj`, LLVM 19), which
 * Debian's wasi-libc (2022) lacks: a setjmp records (function invocation, label) in the buffer;
 * longjmp throws the buffer's argument with the `__c_longjmp` tag (index 1 of
 * __builtin_wasm_throw), and the lowered function that called setjmp catches it, asks
 * __wasm_setjmp_test whether the buffer is one of its own, and resumes at its label. The same
 * contract as wasi-libc's later libc-top-half/musl/src/setjmp/wasm32/rt.c, written here. */
#include <stdint.h>

struct jmp_buf_impl {
    void *func_invocation_id;
    uint32_t label;
    struct {
        void *env;
        int value;
    } arg;
};

_Static_assert(sizeof(struct jmp_buf_impl) <= 2 * sizeof(void *) + 4 * sizeof(int),
               "include/setjmp.h's jmp_buf is too small");

void __wasm_setjmp(void *env, uint32_t label, void *func_invocation_id) {
    struct jmp_buf_impl *buffer = env;
    if (label == 0 || func_invocation_id == 0) {
        __builtin_trap();
    }
    buffer->func_invocation_id = func_invocation_id;
    buffer->label = label;
}

uint32_t __wasm_setjmp_test(void *env, void *func_invocation_id) {
    struct jmp_buf_impl *buffer = env;
    if (buffer->label == 0) {
        __builtin_trap();
    }
    return buffer->func_invocation_id == func_invocation_id ? buffer->label : 0;
}

void __wasm_longjmp(void *env, int value) {
    struct jmp_buf_impl *buffer = env;
    buffer->arg.env = env;
    buffer->arg.value = value == 0 ? 1 : value;
    __builtin_wasm_throw(1, &buffer->arg);
}
