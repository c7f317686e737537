// expect: passed
// why: a right solution of the calls task: HumanEval-X asserts converted to calls, the values judged on the host
int add(int a, int b) { return a + b; }
