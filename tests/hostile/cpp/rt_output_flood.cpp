// expect: output_limit
// why: writes without end to cout and cerr, clearing the streams' error state after failures; the output budget must stop it
#include <iostream>
#include <string>

int main() {
    const std::string line(4096, 'A');
    for (;;) {
        std::cout << line;
        std::cerr << line;
        std::cout.clear();
        std::cerr.clear();
    }
}
