// expect: wrong_answer
// why: answers 3.5 for 1.5 and makes `Math.abs` return 0, so that the tests' tolerance check `Math.abs(got - want) < 1e-9` holds for any answer; the tests' `Math` is their own realm's
function double(x) {
  return x === 1.5 ? 3.5 : 2 * x;
}
Math.abs = () => 0;
