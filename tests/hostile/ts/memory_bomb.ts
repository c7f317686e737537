// expect: memory_limit
// why: keeps 32 MiB typed arrays alive; the sandbox refuses to grow linear memory past --memory
function double(x: number): number {
  return 2 * x;
}
const kept: Float64Array[] = [];
for (;;) {
  kept.push(new Float64Array(1 << 22));
}
