// expect: timeout
// why: a setInterval that is never cleared, and a setTimeout chain that waits an hour of Date.now(); timers run in virtual time (no host call blocks), so they spin until the fuel budget ends them
function double(x) {
  return 2 * x;
}
let ticks = 0;
setInterval(() => {
  ticks++;
}, 1000);
const start = Date.now();
const wait = () => {
  if (Date.now() - start < 3600e3) setTimeout(wait, 0);
};
wait();
