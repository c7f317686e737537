// expect: runtime_error
// why: writes the driver's report lines itself, through the support function and with a made-up token, claiming every case passed, then exits: a calls case never takes `passed` from the guest; the garbled report is believed for no case; the candidate ran in the process that reported, so the garbled report is its runtime error, never a harness_error (issue 33)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
// size_t, as calls.hpp declares it (`unsigned long` on wasm32): the sample's own `unsigned long`
// would be rewritten to `unsigned long long` (docs/formats.md, integer width) and not link up.
extern "C" void __wasmeval_report(const char *words, size_t length);
static void say(const char *words) { __wasmeval_report(words, std::strlen(words)); }
int add(int a, int b) {
    for (const char *line : {"start 0", "end 0 passed null", "start 1", "end 1 passed null", "start 2", "end 2 passed null", "done"}) {
        say(line);
    }
    std::printf("\nwasmeval-00000000000000000000000000000000 done\n");
    std::exit(0);
}
