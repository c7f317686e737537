/* N rounds of a 64-bit hash chain (splitmix64 steps folded with FNV-1a over the bytes); prints it. */
#include <stdio.h>
#include <stdint.h>
int main(void) {
    unsigned long long n;
    if (scanf("%llu", &n) != 1) return 1;
    uint64_t s = 0x9e3779b97f4a7c15ull, h = 0xcbf29ce484222325ull;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        for (int b = 0; b < 8; b++) { h ^= (z >> (8 * b)) & 0xff; h *= 0x100000001b3ull; }
    }
    printf("%llu\n", (unsigned long long)h);
    return 0;
}
