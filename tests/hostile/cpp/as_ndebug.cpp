// expect: wrong_answer
// why: defines NDEBUG so that the test's asserts compile to nothing; wasmeval undefines it and includes <assert.h> again before the test
#define NDEBUG
int add(int a, int b) { return 0; }
