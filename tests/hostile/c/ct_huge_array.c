// expect: compile_error
// why: a 1 GiB static array with every byte initialised (a GNU range designator) must become a 1 GiB data section: a compile-time memory and file-size bomb; the compiler's address-space limit (or the 256 MiB file-size limit) stops it. A zero-filled array costs nothing to compile (wasm-ld leaves zeros out); see rt_huge_static.c
static char huge[1u << 30] = {[0 ... (1u << 30) - 1] = 1};

int main(void) { return huge[12345]; }
