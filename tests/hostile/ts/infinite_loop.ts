// expect: timeout
// why: loops forever while loading, printing nothing; the instruction budget (fuel) stops it
function double(x: number): number {
  return 2 * x;
}
for (;;) {}
