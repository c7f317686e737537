// expect: passed
// why: control: a plain, correct program (a function for the assertion cases, stdin to stdout for the io cases) passes
function double(x) {
  return 2 * x;
}
const text = require('fs').readFileSync(0, 'utf8').trim();
if (text !== '') console.log(double(Number(text)));
