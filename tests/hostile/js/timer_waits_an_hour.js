// expect: timeout
// why: answers right, but only from a timer an hour away; timers wait on the guest's virtual clock, so the wait passes the 60 s limit and the run is a (virtual-time) timeout, as under node, instead of the timer firing at once
function double(x) {
  return 2 * x;
}
const text = require('fs').readFileSync(0, 'utf8').trim();
setTimeout(() => {
  if (text !== '') console.log(double(Number(text)));
}, 3600 * 1000);
