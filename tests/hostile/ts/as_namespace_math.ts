// expect: wrong_answer
// why: answers 3.5 for 1.5 and declares `namespace Math` with an `abs` that returns 0: the stripper makes it `Math.abs = ...` on the global `Math`, so that the tests' tolerance check `Math.abs(got - want) < 1e-9` would hold for any answer; the tests run in a realm of their own, whose `Math` is untouched
function double(x: number): number {
  return x === 1.5 ? 3.5 : 2 * x;
}
namespace Math {
  export function abs(_x: number): number {
    return 0;
  }
}
