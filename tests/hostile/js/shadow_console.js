// expect: runtime_error
// why: answers wrongly and declares its own `console` and `require` at the top level, so that the tests appended after it would call a no-op assert; both are non-configurable globals, so the declarations fail (a SyntaxError-like error when the script starts) and nothing passes
function double(x) {
  return x;
}
let console = { assert() {}, log() {} };
function require() {
  return { strictEqual() {}, deepEqual() {} };
}
