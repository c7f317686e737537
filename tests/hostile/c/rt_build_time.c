// expect: wrong_answer
// why: prints the compiler's __DATE__ and __TIME__ instead of the answer; compilers run with a fixed SOURCE_DATE_EPOCH, so it prints Jan  1 2000 00:00:00 on every machine (checked in toolchain.rs), never the host's clock
#include <stdio.h>
int main(void) {
    printf("%s %s\n", __DATE__, __TIME__);
    return 0;
}
