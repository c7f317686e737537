// expect: compile_error
// why: its own __assert_fail that returns would make every failed assert a no-op; wasmeval's is strong, so two definitions clash at link time
extern "C" void __assert_fail(const char *, const char *, int, const char *) {}
int add(int a, int b) { return 0; }
