// expect: wrong_answer
// why: replaces the assert macro with nothing; wasmeval undefines it and includes <assert.h> again before the test
#include <cassert>
#undef assert
#define assert(x) ((void)0)
int add(int a, int b) { return 0; }
