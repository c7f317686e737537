// expect: compile_error
// why: its own main, then `#define main` to rename the test's out of the way; wasmeval undefines main before the test, so the two mains clash
int main(void) { return 0; }
#define main not_the_tests_main
int add(int a, int b) { return 0; }
