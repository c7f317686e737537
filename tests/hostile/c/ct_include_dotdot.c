// expect: compile_error
// why: reaches /etc/passwd and /etc/shadow by a relative path from the scratch folder and through the /proc/self/root magic link; none is readable
// must-not-output: root:x:0:0
// must-not-output: root:*:
// must-not-output: root:!
#include "../../../../../../../../etc/passwd"
#include "/proc/self/root/etc/passwd"
#include "../../../../../../../../etc/shadow"

int main(void) { return 0; }
