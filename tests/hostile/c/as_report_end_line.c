// expect: runtime_error
// why: calls the calls drivers' line writer, __wasmeval_report("end"), which would write the end-of-tests line with the run's token, then exits 0; the writer refuses the bare "end" line, which only the end of the test's main writes
#include <stddef.h>
#include <stdlib.h>
void __wasmeval_report(const char *words, size_t length);
int add(int a, int b) {
    __wasmeval_report("end", 3);
    exit(0);
}
