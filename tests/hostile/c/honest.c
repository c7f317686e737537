// expect: passed
// why: control: a plain, correct C11 program with no tricks compiles and passes
#include <stdio.h>

int main(void) {
    long long x;
    if (scanf("%lld", &x) != 1) {
        return 1;
    }
    printf("%lld\n", 2 * x);
    return 0;
}
