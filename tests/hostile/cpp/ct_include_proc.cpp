// expect: compile_error
// why: #include <...> through /proc: the compiler's environment, command line and the host's root by the magic link; /proc is not readable
// must-not-output: HOME=
// must-not-output: root:x:0:0
#include </proc/self/environ>
#include </proc/self/root/etc/passwd>
#include </proc/1/cmdline>

int main() { return 0; }
