// expect: runtime_error
// why: registers an atexit handler that exits 0 again, then exits from the function under test: handlers run, the test never ends
#include <cstdlib>
static void again() { _Exit(0); }
int add(int a, int b) { std::atexit(again); std::exit(3); }
