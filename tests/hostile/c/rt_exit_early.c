// expect: wrong_answer
// why: prints a wrong answer and exits with status 0 at once; an exit code never passes a case, only the output does
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    printf("5\n");
    exit(0);
}
