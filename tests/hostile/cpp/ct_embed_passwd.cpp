// expect: compile_error
// why: #embed (C23, accepted by clang 19 in C++ as an extension) would bake host files into an array silently; Landlock denies the reads
// must-not-output: root:x:0:0
// must-not-output: HOME=
#include <cstdio>

static const unsigned char passwd[] = {
#embed "/etc/passwd"
};
static const unsigned char environ_bytes[] = {
#embed "/proc/self/environ" if_empty(0)
};

int main() {
    std::fwrite(passwd, 1, sizeof passwd, stdout);
    std::fwrite(environ_bytes, 1, sizeof environ_bytes, stdout);
    return 0;
}
