// expect: runtime_error
// why: returns a Proxy typed as the answer, an object whose valueOf and toJSON lie, and an array subclass; only plain data is reported, and none of these is
class Lying extends Array<number> {}
function double(x: number | number[]): any {
  if (Array.isArray(x)) {
    const lying = new Lying();
    lying.push(2, 4);
    return lying;
  }
  if (x === 1) {
    return new Proxy({}, { get: () => () => true, has: () => true, ownKeys: () => [] }) as unknown as number;
  }
  return { valueOf: (): number => 4, toJSON: (): number => 4, toString: (): string => '4' };
}
