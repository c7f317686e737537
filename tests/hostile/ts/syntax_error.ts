// expect: compile_error
// why: does not parse as TypeScript; stripping happens on the host, so the sample is a compile error naming the line, and no guest runs
function double(x: number): number {
  return 2 * x;
}
function broken(x: number {
  return x;
}
