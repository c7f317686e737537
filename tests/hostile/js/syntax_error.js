// expect: runtime_error
// why: a program that does not parse; like a Python SyntaxError, it is a runtime_error (compile_error is for compiled languages), with the parser's message
function double(x) {
  return 2 * x
