// expect: compile_error
// why: a constexpr-built 512 MiB array (a compile-time memory bomb that would also become a 512 MiB data section); clang's constexpr step limit, its address-space limit or the file-size limit stop it
struct Big {
    unsigned char bytes[1u << 29];
};

constexpr Big make() {
    Big big{};
    for (unsigned i = 0; i < sizeof big.bytes; ++i) {
        big.bytes[i] = static_cast<unsigned char>(i * 7);
    }
    return big;
}

constexpr Big big = make();

int main() { return big.bytes[12345]; }
