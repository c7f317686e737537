// expect: wrong_answer
// why: a wrong solution that rewrites JSON.stringify, Object.prototype.toString and console to make its values read as right, and tries to exit early with a made-up report; the prelude reports with references it kept, and the host compares
function double(x) {
  return Array.isArray(x) ? x : x + 1;
}
JSON.stringify = () => '4';
Object.prototype.toString = () => '4';
console.log = () => {};
