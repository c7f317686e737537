// expect: compile_error
// must-not-output: libc.so
// must-not-output: x86_64-linux-gnu
// why: #embed of the dynamic loader's cache, which names every library on the host; the compiler loads its libraries by their own paths and may not read the cache
#include <stdio.h>
static const char cache[] = {
#embed "/etc/ld.so.cache"
    , 0};

int main(void) {
    puts(cache);
    return 0;
}
