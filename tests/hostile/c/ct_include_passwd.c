// expect: compile_error
// why: #include of a host file; clang prints the first offending line of an included file in its diagnostics, so reading it would leak it. Landlock denies the read
// must-not-output: root:x:0:0
// must-not-output: /bin/bash
#include "/etc/passwd"

int main(void) { return 0; }
