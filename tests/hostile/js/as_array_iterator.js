// expect: wrong_answer
// why: answers 19 for 9 and replaces `Array.prototype[Symbol.iterator]` with an iterator that yields nothing, so that the tests' `for (const [x, want] of ...)` loop never runs; the tests run in a realm of their own, whose iterator is untouched
function double(x) {
  return x === 9 ? 19 : 2 * x;
}
Array.prototype[Symbol.iterator] = function () {
  return { next: () => ({ done: true, value: undefined }) };
};
