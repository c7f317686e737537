// expect: timeout
// why: loops forever at run time without printing; the instruction budget (fuel) must stop it
int main(void) {
    volatile unsigned long long x = 0;
    for (;;) {
        x = x + 1;
    }
}
