// expect: wrong_answer
// why: prints __TIMESTAMP__ (the source's modification time) and __DATE__; with SOURCE_DATE_EPOCH fixed they show 2000, never the host's clock
#include <cstdio>
int main() {
    std::printf("%s | %s\n", __TIMESTAMP__, __DATE__);
    return 0;
}
