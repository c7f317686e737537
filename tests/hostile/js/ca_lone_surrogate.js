// expect: runtime_error
// why: returns strings holding lone surrogates ("\ud800" in an array, "a\udc00b"), which have no UTF-8 form; that is the candidate's error (as in Python), not a garbled report blamed on wasmeval
function double(x) {
  return Array.isArray(x) ? ['\ud800'] : 'a\udc00b';
}
