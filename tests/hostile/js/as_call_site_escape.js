// expect: wrong_answer
// why: answers 0 for 3 and, when called, sets `Error.prepareStackTrace` to collect `CallSite.getFunction()` of every frame on the stack (QuickJS-NG walks the whole runtime's stack, the tests' frames included), then makes `Array.prototype.every` always true in the realm of each function found (`f.constructor('return globalThis')()`), before the tests' `[3, 4].map(double).every(...)` looks `every` up; in the candidate's realm `Error.prepareStackTrace` is a plain property the engine never calls, so no function of the tests' realm reaches the program
function double(x) {
  try {
    Error.prepareStackTrace = (error, sites) => sites.map((site) => site.getFunction());
    const functions = new Error('where').stack;
    if (Array.isArray(functions)) {
      for (const f of functions) {
        if (typeof f === 'function') {
          f.constructor('return globalThis')().Array.prototype.every = () => true;
        }
      }
    }
  } catch (e) {
    // nothing reached
  }
  return x === 3 ? 0 : 2 * x;
}
