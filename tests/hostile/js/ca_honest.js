// expect: passed
// why: a right solution of the calls task: the values are judged on the host
function double(x) {
  return Array.isArray(x) ? x.map((v) => 2 * v) : 2 * x;
}
