// expect: timeout
// why: an endless chain of promise jobs (each schedules the next) and process.nextTick; the job queue never empties, so the program never returns to main, and fuel stops it
function double(x) {
  return 2 * x;
}
function again() {
  Promise.resolve().then(again);
  process.nextTick(() => {});
}
again();
