/* wasmeval's stand-in for OpenSSL's <openssl/md5.h>: the MD5 digest (RFC 1321) behind OpenSSL's
 * legacy interface, MD5_Init/MD5_Update/MD5_Final/MD5 and MD5_DIGEST_LENGTH, in C and C++.
 * OpenSSL has no wasm32 build in the registries, and HumanEval-X's C++ task 162 includes this
 * header. Everything is defined here (static inline functions), so nothing needs linking.
 *
 * Not provided: the rest of OpenSSL (EVP_*, other digests), MD5_Transform's OpenSSL quirks. The
 * context's fields are not OpenSSL's layout; programs use it only through these functions.
 */
#ifndef WASMEVAL_OPENSSL_MD5_H
#define WASMEVAL_OPENSSL_MD5_H

#include <stddef.h>
#include <stdint.h>

#define MD5_CBLOCK 64
#define MD5_LBLOCK (MD5_CBLOCK / 4)
#define MD5_DIGEST_LENGTH 16
#define MD5_LONG unsigned int

typedef struct MD5state_st {
    uint32_t state[4];       /* the running digest A, B, C, D */
    uint64_t bytes;          /* message length so far */
    unsigned char block[MD5_CBLOCK]; /* a partial block waiting for more input */
    unsigned int used;       /* bytes of `block` filled */
} MD5_CTX;

/* floor(|sin(i + 1)| * 2^32) for i in 0..63 (RFC 1321, section 3.4). */
static const uint32_t wasmeval_md5_sines[64] = {
    0xd76aa478u, 0xe8c7b756u, 0x242070dbu, 0xc1bdceeeu, 0xf57c0fafu, 0x4787c62au, 0xa8304613u,
    0xfd469501u, 0x698098d8u, 0x8b44f7afu, 0xffff5bb1u, 0x895cd7beu, 0x6b901122u, 0xfd987193u,
    0xa679438eu, 0x49b40821u, 0xf61e2562u, 0xc040b340u, 0x265e5a51u, 0xe9b6c7aau, 0xd62f105du,
    0x02441453u, 0xd8a1e681u, 0xe7d3fbc8u, 0x21e1cde6u, 0xc33707d6u, 0xf4d50d87u, 0x455a14edu,
    0xa9e3e905u, 0xfcefa3f8u, 0x676f02d9u, 0x8d2a4c8au, 0xfffa3942u, 0x8771f681u, 0x6d9d6122u,
    0xfde5380cu, 0xa4beea44u, 0x4bdecfa9u, 0xf6bb4b60u, 0xbebfbc70u, 0x289b7ec6u, 0xeaa127fau,
    0xd4ef3085u, 0x04881d05u, 0xd9d4d039u, 0xe6db99e5u, 0x1fa27cf8u, 0xc4ac5665u, 0xf4292244u,
    0x432aff97u, 0xab9423a7u, 0xfc93a039u, 0x655b59c3u, 0x8f0ccc92u, 0xffeff47du, 0x85845dd1u,
    0x6fa87e4fu, 0xfe2ce6e0u, 0xa3014314u, 0x4e0811a1u, 0xf7537e82u, 0xbd3af235u, 0x2ad7d2bbu,
    0xeb86d391u,
};

/* Left-rotation amounts: four per round, repeated four times within it. */
static const unsigned char wasmeval_md5_shifts[16] = {
    7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21,
};

/* Mixes one 64-byte block into the running digest. */
static inline void wasmeval_md5_block(uint32_t state[4], const unsigned char *block) {
    uint32_t words[16];
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    unsigned int step;
    for (step = 0; step < 16; step++) {
        const unsigned char *p = block + 4 * step;
        words[step] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    }
    for (step = 0; step < 64; step++) {
        unsigned int round = step / 16;
        uint32_t mixed;
        unsigned int word;
        unsigned int shift = wasmeval_md5_shifts[round * 4 + step % 4];
        if (round == 0) {
            mixed = (b & c) | (~b & d);
            word = step;
        } else if (round == 1) {
            mixed = (d & b) | (~d & c);
            word = (5 * step + 1) % 16;
        } else if (round == 2) {
            mixed = b ^ c ^ d;
            word = (3 * step + 5) % 16;
        } else {
            mixed = c ^ (b | ~d);
            word = (7 * step) % 16;
        }
        mixed += a + wasmeval_md5_sines[step] + words[word];
        a = d;
        d = c;
        c = b;
        b += (mixed << shift) | (mixed >> (32 - shift));
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
}

static inline int MD5_Init(MD5_CTX *c) {
    c->state[0] = 0x67452301u;
    c->state[1] = 0xefcdab89u;
    c->state[2] = 0x98badcfeu;
    c->state[3] = 0x10325476u;
    c->bytes = 0;
    c->used = 0;
    return 1;
}

static inline int MD5_Update(MD5_CTX *c, const void *data, size_t len) {
    const unsigned char *in = (const unsigned char *)data;
    c->bytes += len;
    while (len > 0) {
        size_t take = MD5_CBLOCK - c->used;
        size_t i;
        if (take > len) {
            take = len;
        }
        for (i = 0; i < take; i++) {
            c->block[c->used + i] = in[i];
        }
        c->used += (unsigned int)take;
        in += take;
        len -= take;
        if (c->used == MD5_CBLOCK) {
            wasmeval_md5_block(c->state, c->block);
            c->used = 0;
        }
    }
    return 1;
}

/* Pads (0x80, zeros, the length in bits as 64-bit little-endian) and writes the digest. */
static inline int MD5_Final(unsigned char *md, MD5_CTX *c) {
    uint64_t bits = c->bytes * 8;
    unsigned char tail[MD5_CBLOCK + 8];
    size_t pad = (c->used < 56 ? 56 : 120) - c->used;
    size_t i;
    tail[0] = 0x80;
    for (i = 1; i < pad; i++) {
        tail[i] = 0;
    }
    for (i = 0; i < 8; i++) {
        tail[pad + i] = (unsigned char)(bits >> (8 * i));
    }
    MD5_Update(c, tail, pad + 8);
    for (i = 0; i < 16; i++) {
        md[i] = (unsigned char)(c->state[i / 4] >> (8 * (i % 4)));
    }
    return 1;
}

static inline int MD5_Transform(MD5_CTX *c, const unsigned char *b) {
    wasmeval_md5_block(c->state, b);
    return 1;
}

/* The digest of `n` bytes at `d` into `md`, or into a static buffer when `md` is null. */
static inline unsigned char *MD5(const unsigned char *d, size_t n, unsigned char *md) {
    static unsigned char digest[MD5_DIGEST_LENGTH];
    MD5_CTX c;
    if (!md) {
        md = digest;
    }
    MD5_Init(&c);
    MD5_Update(&c, d, n);
    MD5_Final(md, &c);
    return md;
}

#endif
