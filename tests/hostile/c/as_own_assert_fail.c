// expect: compile_error
// why: its own __assert_fail that returns would make every failed assert a no-op; wasmeval's is strong, so two definitions clash at link time
void __assert_fail(const char *expr, const char *file, int line, const char *func) {}
int add(int a, int b) { return 0; }
