// expect: passed
// why: prints HOME, PATH and USER to stderr before the honest answer; the module's environment holds none of the host's variables
// must-not-output: env:HOME=
// must-not-output: env:PATH=
// must-not-output: env:USER=
#include <cstdlib>
#include <iostream>

int main() {
    for (const char *name : {"HOME", "PATH", "USER"}) {
        if (const char *value = std::getenv(name)) {
            std::cerr << "env:" << name << "=" << value << "\n";
        }
    }
    long long x;
    std::cin >> x;
    std::cout << 2 * x << "\n";
}
