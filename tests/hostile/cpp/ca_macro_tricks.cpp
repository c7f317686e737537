// expect: wrong_answer
// why: a wrong solution that redefines the driver's macro and assert to do nothing; the prelude undoes them before the driver, so every case reports the wrong value
#define WASMEVAL_CASE(...) ((void)0)
#define assert(x) ((void)0)
int add(int a, int b) { return a + b + 1; }
