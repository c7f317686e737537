// expect: runtime_error
// why: a constructor takes a key from wasmeval's own __wasmeval_begin_of_tests(), calls __wasmeval_end_of_tests() with it and exits 0 before main; the support refuses a begin before every constructor has run (its own runs last), so no end line is written and exiting early is not a pass
#include <stdlib.h>
unsigned long long __wasmeval_begin_of_tests(void);
void __wasmeval_end_of_tests(unsigned long long key);
__attribute__((constructor)) static void forge(void) {
    __wasmeval_end_of_tests(__wasmeval_begin_of_tests());
    _Exit(0);
}
int add(int a, int b) { return 0; }
