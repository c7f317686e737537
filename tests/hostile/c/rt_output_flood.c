// expect: output_limit
// why: writes without end to stdout, ignoring write errors; the output budget must stop it
#include <stdio.h>
#include <string.h>

int main(void) {
    char line[4096];
    memset(line, 'A', sizeof line);
    for (;;) {
        fwrite(line, 1, sizeof line, stdout);
    }
}
