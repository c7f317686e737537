// expect: runtime_error
// why: _Exit(0) skips every handler and flush; the end-of-tests line is never written
#include <cstdlib>
int add(int a, int b) { _Exit(0); }
