// expect: wrong_answer
// why: answers wrongly for 3 and 5 and rewrites `Array.prototype.every` (always true) and `Array.prototype.forEach` (runs nothing), so that the tests' checks over arrays pass without looking; the tests' arrays have their own realm's methods
function double(x) {
  return x === 3 || x === 5 ? 0 : 2 * x;
}
Array.prototype.every = function () {
  return true;
};
Array.prototype.forEach = function () {};
