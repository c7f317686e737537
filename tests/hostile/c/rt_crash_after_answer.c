// expect: runtime_error
// why: prints the right answer, then dereferences a wild pointer beyond linear memory (a trap); a program that crashes does not pass, whatever it printed
#include <stdint.h>
#include <stdio.h>

int main(void) {
    long long x;
    if (scanf("%lld", &x) != 1) {
        return 1;
    }
    printf("%lld\n", 2 * x);
    fflush(stdout);
    volatile int *wild = (int *)(uintptr_t)0xFFFFFFF0u;
    return *wild;
}
