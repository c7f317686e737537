// expect: compile_error
// why: #include of host files by absolute and relative path; clang would quote their first lines in its diagnostics. Landlock denies the reads
// must-not-output: root:x:0:0
// must-not-output: /bin/bash
#include <iostream>
#include "/etc/passwd"
#include "../../../../../../../../etc/passwd"

int main() { return 0; }
