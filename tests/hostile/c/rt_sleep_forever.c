// expect: timeout
// why: sleeps a million seconds before answering; virtual time passes the time limit, a timeout (cause virtual_time) at once, on any machine
#include <stdio.h>
#include <unistd.h>
int main(void) {
    sleep(1000000);
    int x;
    if (scanf("%d", &x) == 1) printf("%d\n", 2 * x);
    return 0;
}
