// expect: output_limit
// why: writes without end to stdout, ignoring errors; the output budget traps the write that crosses it
declare var process: any;
function double(x: number): number {
  return 2 * x;
}
const chunk: string = 'flood'.repeat(10000);
for (;;) {
  try {
    console.log(chunk);
    process.stdout.write(chunk);
  } catch (e: unknown) {}
}
