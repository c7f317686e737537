// expect: passed
// why: prints HOME, PATH, USER and the whole environ to stderr before the honest answer; the module's environment holds none of the host's variables
// must-not-output: env:HOME=
// must-not-output: env:PATH=
// must-not-output: env:USER=
#include <stdio.h>
#include <stdlib.h>

extern char **environ;

int main(void) {
    const char *names[] = {"HOME", "PATH", "USER"};
    for (int i = 0; i < 3; i++) {
        const char *value = getenv(names[i]);
        if (value) {
            fprintf(stderr, "env:%s=%s\n", names[i], value);
        }
    }
    for (char **entry = environ; entry && *entry; entry++) {
        fprintf(stderr, "env:%s\n", *entry);
    }
    long long x;
    if (scanf("%lld", &x) != 1) {
        return 1;
    }
    printf("%lld\n", 2 * x);
    return 0;
}
