// expect: wrong_answer
// why: answers 15 for 7 and makes `JSON.stringify` return the same text for every value, so that the tests' `JSON.stringify(got) === JSON.stringify(want)` holds; the tests' `JSON` is their own realm's
function double(x) {
  return x === 7 ? 15 : 2 * x;
}
JSON.stringify = () => '[]';
