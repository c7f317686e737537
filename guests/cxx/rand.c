/* glibc's rand(), srand() and rand_r() sequences, for C and C++ guests.
 *
 * wasi-libc's rand() is musl's (a 64-bit LCG returning its top 31 bits), so `srand(1); rand()`
 * gives other numbers than on Linux with glibc. Models are trained on programs, tests and expected
 * outputs written against glibc, and some tests depend on the exact sequence: HumanEval-X's
 * CPP/32 draws polynomials with rand() and its Newton iteration converges on glibc's draws but
 * loops forever on musl's. So C and C++ modules get glibc's generators, written here from their
 * documented behaviour:
 *
 * - rand() and srand(): glibc's default random() state, "TYPE_3": an additive lagged-Fibonacci
 *   generator over 31 words, r[i] = r[i-3] + r[i-31] (mod 2^32), whose output is r[i] >> 1.
 *   srand(seed) fills r[0..30] with seed (0 counts as 1) and then the Park-Miller "minimal
 *   standard" LCG (x * 16807 mod 2^31-1, with Schrage's method on signed 32-bit words), and
 *   throws away the first 310 outputs. A program that never calls srand() behaves as after
 *   srand(1): 1804289383, 846930886, 1681692777, 1714636915, ...
 * - rand_r(&seed): glibc's reentrant generator, three steps of the LCG
 *   seed * 1103515245 + 12345 per call, contributing 11, 10 and 10 bits of (seed / 65536).
 *
 * random(), srandom(), initstate() and setstate() stay musl's (one archive member in wasi-libc:
 * replacing some of them would bring the others back as duplicates), so they do not share
 * rand()'s state as they do in glibc.
 *
 * Every definition is weak, so a program that defines rand() itself keeps its own. This object is
 * given to the linker before libc.a, and since it defines rand and srand, libc.a's member that
 * defines them is never pulled in (no duplicate symbols).
 *
 * Compiled once per toolchain detection into the project sysroot (runner/src/toolchain/clang.rs)
 * and linked into every C and C++ module. No headers: it must not depend on anything but the
 * target.
 */
typedef int int32_t;
typedef unsigned int uint32_t;

#define WASMEVAL_RAND_WORDS 31
#define WASMEVAL_RAND_LAG 3
#define WASMEVAL_RAND_DISCARD (10 * WASMEVAL_RAND_WORDS)

static uint32_t wasmeval_rand_table[WASMEVAL_RAND_WORDS];
/* Positions of r[i-31] and r[i-3] of the next output, in the circular table. */
static int wasmeval_rand_far;
static int wasmeval_rand_near;
static int wasmeval_rand_seeded;

static int wasmeval_rand_step(void) {
    uint32_t next = wasmeval_rand_table[wasmeval_rand_far] + wasmeval_rand_table[wasmeval_rand_near];
    /* r[i] replaces r[i-31], which is never needed again. */
    wasmeval_rand_table[wasmeval_rand_far] = next;
    wasmeval_rand_far = (wasmeval_rand_far + 1) % WASMEVAL_RAND_WORDS;
    wasmeval_rand_near = (wasmeval_rand_near + 1) % WASMEVAL_RAND_WORDS;
    return (int)(next >> 1);
}

__attribute__((weak)) void srand(unsigned int seed) {
    int32_t word = (int32_t)(seed == 0 ? 1u : seed);
    int i;
    wasmeval_rand_table[0] = (uint32_t)word;
    for (i = 1; i < WASMEVAL_RAND_WORDS; i++) {
        /* word * 16807 mod (2^31 - 1) without overflowing 32 bits (Schrage). */
        int32_t high = word / 127773;
        int32_t low = word % 127773;
        word = 16807 * low - 2836 * high;
        if (word < 0) {
            word += 2147483647;
        }
        wasmeval_rand_table[i] = (uint32_t)word;
    }
    /* r[31..33] are r[0..2], so the first new word is r[34] = r[3] + r[31] = r[3] + r[0]. */
    wasmeval_rand_far = WASMEVAL_RAND_LAG;
    wasmeval_rand_near = 0;
    for (i = 0; i < WASMEVAL_RAND_DISCARD; i++) {
        (void)wasmeval_rand_step();
    }
    wasmeval_rand_seeded = 1;
}

__attribute__((weak)) int rand(void) {
    if (!wasmeval_rand_seeded) {
        srand(1);
    }
    return wasmeval_rand_step();
}

__attribute__((weak)) int rand_r(unsigned int *seed) {
    unsigned int state = *seed;
    unsigned int result;
    state = state * 1103515245u + 12345u;
    result = (state / 65536) % 2048;
    state = state * 1103515245u + 12345u;
    result = (result << 10) ^ ((state / 65536) % 1024);
    state = state * 1103515245u + 12345u;
    result = (result << 10) ^ ((state / 65536) % 1024);
    *seed = state;
    return (int)result;
}
