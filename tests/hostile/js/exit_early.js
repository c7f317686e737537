// expect: runtime_error
// why: answers wrongly and exits with status 0 while loading, before any test runs; only the guest's own end-of-program line (after a token JavaScript never sees) passes an assertion case, so an early exit is a runtime error, not a pass
function double(x) {
  return x;
}
process.exit(0);
