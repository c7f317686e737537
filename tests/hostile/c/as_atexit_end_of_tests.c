// expect: runtime_error
// why: a constructor registers an atexit handler that takes a key and calls __wasmeval_end_of_tests(), then the function under test exits 0 so that the handler runs; the tests' main already took the key, the handler's begin is refused, and no end line is written
#include <stdlib.h>
unsigned long long __wasmeval_begin_of_tests(void);
void __wasmeval_end_of_tests(unsigned long long key);
static void forge(void) { __wasmeval_end_of_tests(__wasmeval_begin_of_tests()); }
__attribute__((constructor)) static void arm(void) { atexit(forge); }
int add(int a, int b) { exit(0); }
