// expect: memory_limit
// why: keeps allocating and touching 16 MiB blocks until malloc fails, then exits with an error code; the sandbox's memory limit refuses to grow linear memory past it
#include <stdlib.h>

int main(void) {
    for (;;) {
        // volatile: otherwise the compiler may elide the allocations and the writes.
        volatile char *block = malloc(16 << 20);
        if (!block) {
            return 3;
        }
        // Touch every page (cheaper in fuel than filling it) so the memory is really used.
        for (size_t i = 0; i < (16 << 20); i += 4096) {
            block[i] = 1;
        }
    }
}
