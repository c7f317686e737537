// expect: compile_error
// why: makes the entry point a macro that swallows the rest of the assert, so `assert(add(1, 2) == 3)` reads `assert(1 || 0 == 3)`; every macro of the candidate is undefined before the test, whose add is then an undeclared name
#define add(a, b) 1 || 0
