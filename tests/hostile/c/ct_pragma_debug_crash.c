// expect: compile_error
// why: `#pragma clang __debug crash` makes clang crash on purpose; a crashing compiler is the source's compile_error (not a host failure), and it writes no reproducer files (-fno-crash-diagnostics)
#pragma clang __debug crash

int main(void) { return 0; }
