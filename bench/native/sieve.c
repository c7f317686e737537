/* Sieve of Eratosthenes up to N (read from stdin); prints the prime count and a checksum. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
int main(void) {
    long n;
    if (scanf("%ld", &n) != 1) return 1;
    unsigned char *c = calloc(n + 1, 1);
    if (!c) return 2;
    for (long i = 2; i * i <= n; i++)
        if (!c[i]) for (long j = i * i; j <= n; j += i) c[j] = 1;
    uint64_t count = 0, sum = 0;
    for (long i = 2; i <= n; i++)
        if (!c[i]) { count++; sum = sum * 31 + (uint64_t)i; }
    printf("%llu %llu\n", (unsigned long long)count, (unsigned long long)sum);
    free(c);
    return 0;
}
