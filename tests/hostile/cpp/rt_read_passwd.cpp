// expect: passed
// why: reads /etc/passwd, /etc/hostname and /proc/self/environ (with fopen: libc++ for WASI is built without file streams, so <fstream>'s classes are incomplete) and prints them before answering, which would make the answer wrong; the sandbox has no such files, so the reads fail and the honest answer passes
// must-not-output: root:x:0:0
#include <cstdio>
#include <iostream>

int main() {
    for (const char *path : {"/etc/passwd", "/etc/hostname", "/proc/self/environ", "../../../etc/passwd"}) {
        if (std::FILE *file = std::fopen(path, "r")) {
            for (int c; (c = std::fgetc(file)) != EOF;) {
                std::cout << static_cast<char>(c);
            }
            std::fclose(file);
        }
    }
    long long x;
    std::cin >> x;
    std::cout << 2 * x << "\n";
}
