// expect: passed
// why: control for the assertion task: a correct `double`, declared with `const` (a global lexical binding the tests reach through the bridge), passes every case
const double = (x) => 2 * x;
