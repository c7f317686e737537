// expect: passed
// why: control for the calls task: plain data back, with types stripped
function double(x: number | number[]): number | number[] | boolean {
  if (Array.isArray(x)) return x.map((v: number): number => 2 * v);
  return 2 * x;
}
