// expect: wrong_answer
// why: a wrong add, then a macro named like it that swallows the rest of each assert (`assert(1 || 0 == 3)`), as `#define abs(x) 0` would make a test's `assert(abs(f(x) - y) < 1e-4)` hold; the candidate's macros are undefined before the test, which calls the wrong function
int add(int a, int b) { return 0; }
#define add(a, b) 1 || 0
