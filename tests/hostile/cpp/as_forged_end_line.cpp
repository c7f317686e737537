// expect: runtime_error
// why: prints an end-of-tests line with a made-up token, then exits 0; only the run's own token counts
#include <cstdio>
#include <cstdlib>
int add(int a, int b) {
    std::printf("\nwasmeval-00000000000000000000000000000000 end\n");
    std::fflush(stdout);
    std::exit(0);
}
