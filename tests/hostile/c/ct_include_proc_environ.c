// expect: compile_error
// why: #include <...> of the compiler's own environment and command line through /proc/self; /proc is not readable (and the environment is empty)
// must-not-output: HOME=
// must-not-output: PATH=
#include </proc/self/environ>
#include </proc/self/cmdline>

int main(void) { return 0; }
