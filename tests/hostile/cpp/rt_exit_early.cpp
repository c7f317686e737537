// expect: wrong_answer
// why: prints a wrong answer and exits with status 0 at once; an exit code never passes a case, only the output does
#include <cstdlib>
#include <iostream>

int main() {
    std::cout << "5" << std::endl;
    std::exit(0);
}
