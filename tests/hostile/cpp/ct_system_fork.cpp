// expect: compile_error
// why: runs a host command with system(), popen() and fork(); WASI has no processes, so these are undeclared (or, declared by hand, undefined at link time): nothing can be attempted at run time
// host-path-absent: /tmp/wasmeval-cpp-escape
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

int main() {
    if (fork() == 0) {
        return std::system("id > /tmp/wasmeval-cpp-escape");
    }
    FILE *pipe = popen("id", "r");
    return pipe != nullptr;
}
