// expect: runtime_error
// why: exits 0 from the candidate's function: the case that was running never reports a value, and the driver never reports done
#include <cstdlib>
int add(int a, int b) { std::exit(0); }
