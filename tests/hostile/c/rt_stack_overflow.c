// expect: runtime_error
// why: unbounded recursion with a live stack frame per call; overflows the module's 8 MiB shadow stack (placed first, so it runs below address 0 and traps) or wasmtime's stack, never the host's
#include <stdio.h>

static unsigned long long deep(unsigned long long n) {
    volatile unsigned long long frame[64];
    frame[n % 64] = n;
    return deep(n + 1) + frame[3];
}

int main(void) {
    printf("%llu\n", deep(0));
    return 0;
}
