/* N x N integer matrix product (wrapping u32 arithmetic, i-k-j order); prints a checksum. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    uint32_t *a = malloc(sizeof(uint32_t) * n * n), *b = malloc(sizeof(uint32_t) * n * n);
    uint32_t *c = calloc((size_t)n * n, sizeof(uint32_t));
    uint32_t x = 12345;
    for (long i = 0; i < (long)n * n; i++) { x = x * 1103515245u + 12345u; a[i] = x >> 16; }
    for (long i = 0; i < (long)n * n; i++) { x = x * 1103515245u + 12345u; b[i] = x >> 16; }
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            uint32_t aik = a[(long)i * n + k];
            uint32_t *bk = b + (long)k * n, *ci = c + (long)i * n;
            for (int j = 0; j < n; j++) ci[j] += aik * bk[j];
        }
    uint64_t h = 0;
    for (long i = 0; i < (long)n * n; i++) h = h * 1000003u ^ c[i];
    printf("%llu\n", (unsigned long long)h);
    return 0;
}
