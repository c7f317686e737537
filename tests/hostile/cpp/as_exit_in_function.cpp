// expect: runtime_error
// why: exit(0) from the candidate's function ends the process before the test's main reaches its end: no end-of-tests line, no pass
#include <cstdlib>
int add(int a, int b) { std::exit(0); }
