// expect: passed
// why: control: a typed, correct program (an interface, an enum and annotations, all stripped on the host) passes the assertion and io cases
interface Doubler {
  factor: number;
}
enum Sign {
  Negative = -1,
  Positive = 1,
}
const doubler: Doubler = { factor: 2 };
function double(x: number): number {
  return doubler.factor * x * (Sign.Positive as number);
}
declare var require: any;
const text: string = require('fs').readFileSync(0, 'utf8').trim();
if (text !== '') console.log(double(Number(text)));
