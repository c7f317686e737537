// expect: timeout or compile_error
// why: a compile-time CPU bomb that stays within every limit clang has: each of 1000 template instantiations runs a constexpr loop just under the 1,048,576-step limit and within the 1024 template depth (about 10^9 evaluation steps, little memory); only the compiler's CPU limit stops it; under load the compiler may instead run out of memory or stack first and crash (a compile_error): either stops it
constexpr unsigned spin(unsigned seed) {
    unsigned acc = seed;
    for (unsigned i = 0; i < 200000; ++i) {
        acc = acc * 31u + i;
    }
    return acc;
}

template <unsigned N>
struct Tower {
    static constexpr unsigned value = spin(N) ^ Tower<N - 1>::value;
};

template <>
struct Tower<0> {
    static constexpr unsigned value = 0;
};

int main() { return static_cast<int>(Tower<1000>::value & 1); }
