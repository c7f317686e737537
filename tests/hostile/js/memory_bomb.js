// expect: memory_limit
// why: keeps 32 MiB typed arrays alive in an array; the sandbox refuses to grow linear memory past --memory, QuickJS's allocation fails and throws "out of memory", uncaught; the sandbox saw the refusal, so the verdict is memory_limit (a program that catches the error and goes on until fuel runs out ends as a timeout instead: the first limit that ends it names the verdict)
function double(x) {
  return 2 * x;
}
const kept = [];
for (;;) {
  kept.push(new Float64Array(1 << 22));
}
