// expect: compile_error
// why: a namespace named like the guest's `assert`, declared inside a block where TypeScript forbids it; the stripper would leave it as code no engine parses, so the semantic pass refuses it on the host, naming the line, and no guest runs
function double(x: number): number {
  return x + 1;
}
{
  namespace assert {
    export const strictEqual = (): void => {};
  }
  enum console {
    assert,
  }
}
