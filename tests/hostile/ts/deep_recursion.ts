// expect: runtime_error
// why: unbounded recursion through a typed generic function; the guest's stack traps, never the host's, and a trap cannot be caught
function double(x: number): number {
  return 2 * x;
}
function down<T extends number>(n: T): number {
  return down(n + 1) + 1;
}
try {
  down(0);
} catch (e) {}
