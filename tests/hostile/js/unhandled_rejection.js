// expect: runtime_error
// why: answers correctly but leaves a rejected promise unhandled; as in node, an unhandled rejection ends the program with an error, so the case does not pass
function double(x) {
  return 2 * x;
}
Promise.reject(new Error('nobody handles this'));
const text = require('fs').readFileSync(0, 'utf8').trim();
if (text !== '') console.log(double(Number(text)));
