// expect: compile_error
// why: C23 #embed (which clang 19 accepts in C11 mode as an extension) would bake /etc/passwd into the module without any diagnostic; Landlock denies the read
// must-not-output: root:x:0:0
#include <stdio.h>

static const unsigned char passwd[] = {
#embed "/etc/passwd"
};

int main(void) {
    fwrite(passwd, 1, sizeof passwd, stdout);
    return 0;
}
