// expect: compile_error
// must-not-output: Debian
// why: #include of a text file in /usr/lib (os-release), beside the shared libraries clang loads; the compiler may read those libraries' files, not their folder
#include <cstdio>
static const char text[] = {
#include "/usr/lib/os-release"
};

int main() {
    std::puts(text);
    return 0;
}
