// expect: passed
// why: control for the assertion task: a correct, typed `double` passes every case
const double = (x: number): number => 2 * x;
