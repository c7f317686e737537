// expect: wrong_answer
// why: a type error (a string where a number is declared) is not checked, as documented: the types are stripped and the program runs; `double` concatenates instead of multiplying, so the tests fail on its answer
function double(x: number): number {
  const two: number = "2" as any;
  return (two + x) as unknown as number;
}
