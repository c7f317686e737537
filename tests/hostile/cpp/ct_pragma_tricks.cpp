// expect: compile_error
// why: pragmas that reach into the compiler: `#pragma clang __debug llvm_fatal_error` aborts it on purpose, `#pragma comment(lib, ...)` asks to link a host library; neither may become a host failure or touch the host
// must-not-output: root:x:0:0
#pragma comment(lib, "/etc/passwd")
#pragma GCC system_header
#pragma clang __debug llvm_fatal_error

int main() { return 0; }
