// expect: timeout
// why: busy-waits for an hour of wall-clock time on Date.now() and performance.now(); the clocks are virtual (each reading advances them a microsecond), so the loop burns fuel instead of host time and fuel stops it
function double(x) {
  return 2 * x;
}
const start = Date.now();
while (Date.now() - start < 3600e3) {
  if (typeof performance !== 'undefined') performance.now();
}
