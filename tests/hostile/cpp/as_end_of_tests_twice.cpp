// expect: runtime_error
// why: a constructor calls __wasmeval_end_of_tests() twice with guessed keys, then the function under test asks for a second key and ends with it before exiting 0; every call out of turn refuses the later ones, so no end line is written
#include <cstdlib>
extern "C" unsigned long long __wasmeval_begin_of_tests(void);
extern "C" void __wasmeval_end_of_tests(unsigned long long key);
__attribute__((constructor)) static void guess() {
    __wasmeval_end_of_tests(0);
    __wasmeval_end_of_tests(1);
}
int add(int a, int b) {
    __wasmeval_end_of_tests(__wasmeval_begin_of_tests());
    std::exit(0);
}
