// expect: runtime_error
// why: throws and catches an exception around the honest answer; exceptions cannot be caught in this sandbox (Debian's wasm32 libc++abi has none), so the throw aborts through wasmeval's stub: a trap, as for an uncaught exception, never a pass
#include <iostream>
#include <stdexcept>

int main() {
    long long x;
    std::cin >> x;
    try {
        throw std::runtime_error("detour");
    } catch (const std::exception &) {
        std::cout << 2 * x << "\n";
    }
}
