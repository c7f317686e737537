// expect: runtime_error
// why: answers wrongly and exits with status 0 while loading, before any test runs; only the guest's own end-of-program line passes an assertion case
declare const process: { exit(code: number): never };
function double(x: number): number {
  return x;
}
process.exit(0);
