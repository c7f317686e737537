// expect: passed
// why: lists /, /root and /etc with opendir and tries to write /tmp/wasmeval-cpp-escape on the host before answering; only the sandbox's own folders exist, so nothing is listed on stdout and no host file appears
// must-not-output: /bin
// host-path-absent: /tmp/wasmeval-cpp-escape
#include <dirent.h>
#include <cstdio>
#include <iostream>

int main() {
    for (const char *path : {"/", "/root", "/etc", ".."}) {
        if (DIR *dir = opendir(path)) {
            while (dirent *entry = readdir(dir)) {
                std::cerr << path << "/" << entry->d_name << "\n";
            }
            closedir(dir);
        }
    }
    if (std::FILE *escape = std::fopen("/tmp/wasmeval-cpp-escape", "w")) {
        std::fputs("escaped", escape);
        std::fclose(escape);
    }
    long long x;
    std::cin >> x;
    std::cout << 2 * x << "\n";
}
