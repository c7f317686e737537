// expect: compile_error
// why: the string-literal trick: an #include inside a stringizing macro's arguments would turn the host file into a string constant in the module, silently; the read is denied (and clang rejects directives in macro arguments)
// must-not-output: root:x:0:0
#include <stdio.h>
#define STRING(...) #__VA_ARGS__

static const char *hostname = STRING(
#include "/etc/hostname"
);

int main(void) {
    puts(hostname);
    return 0;
}
