/* setjmp/longjmp for the Lua guest: Debian's wasi-libc (2022) has no <setjmp.h>. clang's
 * `-mllvm -wasm-enable-sjlj` turns calls of these two functions into wasm exception handling,
 * calling the runtime functions of sjlj.c; nothing defines `setjmp` or `longjmp` themselves.
 * The buffer holds sjlj.c's `struct jmp_buf_impl` (two pointers and three ints) with room. */
#ifndef WASMEVAL_SETJMP_H
#define WASMEVAL_SETJMP_H
typedef struct {
    void *pointers[2];
    int ints[4];
} jmp_buf[1];
int setjmp(jmp_buf env) __attribute__((returns_twice));
_Noreturn void longjmp(jmp_buf env, int value);
#endif
