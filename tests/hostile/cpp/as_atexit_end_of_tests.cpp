// expect: runtime_error
// why: the function under test registers an atexit handler that takes a key and calls __wasmeval_end_of_tests(), then exits 0 so that it runs; main already took the only key, the handler's begin is refused, and no end line is written
#include <cstdlib>
extern "C" unsigned long long __wasmeval_begin_of_tests(void);
extern "C" void __wasmeval_end_of_tests(unsigned long long key);
static void forge() { __wasmeval_end_of_tests(__wasmeval_begin_of_tests()); }
int add(int a, int b) {
    std::atexit(forge);
    std::exit(0);
}
