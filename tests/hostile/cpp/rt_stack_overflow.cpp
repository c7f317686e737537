// expect: runtime_error
// why: unbounded recursion with a live array per frame; overflows the module's 8 MiB shadow stack (a trap below address 0) or wasmtime's stack, never the host's
#include <array>
#include <iostream>

unsigned long long deep(unsigned long long n, std::array<unsigned long long, 64> &trail) {
    std::array<unsigned long long, 64> local{};
    local[n % 64] = n ^ trail[0];
    volatile unsigned long long *keep = local.data();
    (void)keep;
    return deep(n + 1, local) + local[3];
}

int main() {
    std::array<unsigned long long, 64> start{};
    std::cout << deep(0, start) << "\n";
}
