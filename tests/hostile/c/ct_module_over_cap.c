// expect: compile_error
// why: a 36 MiB string constant, built by macros from a 64-byte one, compiles within the compiler's limits but makes a 36 MiB module, which every variant would add to the module caches; a sample may compile to at most 32 MiB
#include <stdio.h>
#define A "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define B A A A A A A A A A A A A A A A A
#define C B B B B B B B B B B B B B B B B
#define D C C C C C C C C C C C C C C C C
#define E D D D D D D D D D D D D D D D D
static const char big[] = E E E E E E E E E;

int main(void) {
    puts(big + sizeof big - 10);
    return 0;
}
