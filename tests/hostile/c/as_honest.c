// expect: passed
// why: the control: a right answer passes, so the other as_* programs fail for their trick alone
int add(int a, int b) { return a + b; }
