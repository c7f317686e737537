// expect: compile_error
// why: the string-literal trick: an #include where an expression is expected turns a host file whose text is a literal (or any valid tokens) into data in the module, with no diagnostic at all; the reads are denied before any of it matters
// must-not-output: root:x:0:0
#include <cstdio>

static const char *passwd =
#include "/etc/passwd"
    ;
static const char *hostname =
#include "/etc/hostname"
    ;

int main() {
    std::puts(passwd);
    std::puts(hostname);
    return 0;
}
