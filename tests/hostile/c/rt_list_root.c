// expect: passed
// why: lists / and /root and tries to write /tmp/wasmeval-c-escape on the host before answering; only the sandbox's own folders exist, so nothing is listed on stdout and no host file appears
// must-not-output: /bin
// host-path-absent: /tmp/wasmeval-c-escape
#include <dirent.h>
#include <stdio.h>

int main(void) {
    const char *dirs[] = {"/", "/root", "/etc", ".."};
    for (int i = 0; i < 4; i++) {
        DIR *dir = opendir(dirs[i]);
        if (dir) {
            struct dirent *entry;
            while ((entry = readdir(dir)) != NULL) {
                fprintf(stderr, "%s/%s\n", dirs[i], entry->d_name);
            }
            closedir(dir);
        }
    }
    FILE *escape = fopen("/tmp/wasmeval-c-escape", "w");
    if (escape) {
        fputs("escaped", escape);
        fclose(escape);
    }
    long long x;
    if (scanf("%lld", &x) != 1) {
        return 1;
    }
    printf("%lld\n", 2 * x);
    return 0;
}
