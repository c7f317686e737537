// expect: compile_error
// why: headers that exist only on the host (glibc's and Linux's, under /usr/include) must not be found: the sysroot holds only wasi-libc, and the host's /usr/include is not readable even by absolute path
#include <linux/limits.h>
#include "/usr/include/x86_64-linux-gnu/sys/socket.h"
#include "/usr/include/stdio.h"

int main(void) { return 0; }
