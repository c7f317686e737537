/* The handler of clang's null checks (`-fsanitize=null -fsanitize-minimal-runtime
 * -fno-sanitize-recover=null`, runner/src/toolchain/clang.rs), for C and C++.
 *
 * WebAssembly's address 0 is ordinary memory (with `--stack-first`, the bottom of the stack), so a
 * load or store through a null pointer did not fault and a program that segfaults natively could
 * pass. With the checks, every access through a pointer (`*p`, `p->x`, `p[i]`) first compares the
 * pointer with null and, when it is, calls this: it says so on stderr and aborts (a trap: the case
 * is a runtime_error, as the segfault is natively). A pointer that is not null but points into the
 * first page (`*(p + 3)` with p null) is not caught.
 *
 * The definition is weak, so a program that defines it itself keeps its own. No headers: it must
 * not depend on anything but the target.
 */
typedef __SIZE_TYPE__ size_t;

_Noreturn void abort(void);
long write(int fd, const void *bytes, size_t count);

__attribute__((weak, noreturn)) void __ubsan_handle_type_mismatch_minimal_abort(void) {
    static const char text[] = "runtime error: null pointer dereference (a segmentation fault natively)\n";
    (void)write(2, text, sizeof text - 1);
    abort();
}
