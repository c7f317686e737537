// expect: passed
// why: reads /etc/passwd and /proc/self/environ at run time and prints them before answering, which would make the answer wrong; the sandbox has no such files, so the reads fail and the honest answer passes
// must-not-output: root:x:0:0
#include <stdio.h>

int main(void) {
    const char *paths[] = {"/etc/passwd", "/proc/self/environ", "../../../../etc/passwd"};
    for (int i = 0; i < 3; i++) {
        FILE *file = fopen(paths[i], "r");
        if (file) {
            int c;
            while ((c = fgetc(file)) != EOF) {
                putchar(c);
            }
            fclose(file);
        }
    }
    long long x;
    if (scanf("%lld", &x) != 1) {
        return 1;
    }
    printf("%lld\n", 2 * x);
    return 0;
}
