// expect: compile_error
// why: asks for 100000 levels of template recursion; a source cannot raise clang's -ftemplate-depth (1024), so it ends in an error instead of a host stack overflow
template <unsigned N>
struct Depth {
    static constexpr unsigned value = Depth<N - 1>::value + 1;
};

template <>
struct Depth<0> {
    static constexpr unsigned value = 0;
};

int main() { return static_cast<int>(Depth<100000>::value); }
