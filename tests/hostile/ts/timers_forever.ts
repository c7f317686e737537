// expect: timeout
// why: a never-cleared setInterval; timers run in virtual time, so it spins until the fuel budget ends it
function double(x: number): number {
  return 2 * x;
}
let ticks: number = 0;
setInterval((): void => {
  ticks++;
}, 1000);
