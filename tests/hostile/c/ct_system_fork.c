// expect: compile_error
// why: runs host commands with system() and fork(); WASI has neither, so declaring them by hand leaves undefined symbols and the link fails: no process can even be attempted at run time
int system(const char *command);
int fork(void);

int main(void) {
    if (fork() == 0) {
        return system("id > /tmp/wasmeval-c-escape");
    }
    return 0;
}
