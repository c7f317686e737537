// expect: wrong_answer
// why: its own abort() that returns; a failed assert traps instead of calling abort, so it still fails
void abort(void) {}
int add(int a, int b) { return 0; }
