// expect: memory_limit
// why: keeps pushing 16 MiB vectors; when the sandbox refuses to grow linear memory, operator new fails and (exceptions being fatal here) aborts: a trap after a denied growth is memory_limit
#include <vector>

int main() {
    std::vector<std::vector<char>> blocks;
    for (;;) {
        blocks.emplace_back(16u << 20, 'x');
    }
}
