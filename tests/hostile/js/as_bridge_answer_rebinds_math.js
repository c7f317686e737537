// expect: wrong_answer
// why: answers 3.5 for 1.5, defines a global `abs` (a word the tests mention, so the tests' realm asks for it) and puts a setter for index 0 on its realm's `Array.prototype`, so that the bridge's answer naming `abs` would name `Math` instead, bound to a function whose `abs` returns 0; the bridge appends by defining (no setter sees it) and the tests' realm binds only the names it asked for, so the tests' `Math` stays theirs
function double(x) {
  return x === 1.5 ? 3.5 : 2 * x;
}
function abs(x) {
  return x < 0 ? -x : x;
}
function fakeMath() {}
fakeMath.abs = () => 0;
Object.defineProperty(Array.prototype, '0', {
  configurable: true,
  set(value) {
    if (Array.isArray(value) && value[0] === 'abs') value = ['Math', fakeMath];
    Object.defineProperty(this, '0', { value, writable: true, enumerable: true, configurable: true });
  },
});
