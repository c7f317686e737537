// expect: memory_limit
// why: doubles a string without end (and reads its last character, so that a rope would have to be flattened); linear memory reaches --memory before QuickJS's maximum string length (2^30 characters) would raise a RangeError; the host never holds the string
function double(x) {
  return 2 * x;
}
let s = 'x';
for (;;) {
  s = s + s;
  s.charCodeAt(s.length - 1);
}
