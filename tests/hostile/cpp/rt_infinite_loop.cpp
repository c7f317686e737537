// expect: timeout
// why: loops forever at run time without printing; the instruction budget (fuel) must stop it
#include <atomic>

int main() {
    std::atomic<unsigned long long> x{0};
    for (;;) {
        x.fetch_add(1, std::memory_order_relaxed);
    }
}
