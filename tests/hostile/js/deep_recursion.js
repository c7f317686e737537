// expect: runtime_error
// why: unbounded recursion with a live frame per call; QuickJS has no stack check on WASI, so the C stack (placed first in linear memory) runs below address 0 and traps, or wasmtime's stack limit traps first; never the host's stack. A trap cannot be caught by the program's try/catch
function double(x) {
  return 2 * x;
}
function down(n) {
  return down(n + 1) + 1;
}
try {
  down(0);
} catch (e) {
  // A RangeError could be caught here; a trap ends the program.
}
