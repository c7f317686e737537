// expect: runtime_error
// why: returns a Proxy that claims to be anything, an object whose valueOf and toJSON lie, and an array subclass; only plain data is reported, and none of these is
class Lying extends Array {}
function double(x) {
  if (Array.isArray(x)) {
    const lying = new Lying();
    lying.push(2, 4);
    return lying;
  }
  if (x === 1) {
    return new Proxy({}, { get: () => () => true, has: () => true, ownKeys: () => [] });
  }
  return { valueOf: () => 4, toJSON: () => 4, toString: () => '4' };
}
