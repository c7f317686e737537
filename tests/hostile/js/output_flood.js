// expect: output_limit
// why: writes without end to stdout through console.log and process.stdout.write, ignoring errors; the output budget traps the write that crosses it
function double(x) {
  return 2 * x;
}
const chunk = 'flood'.repeat(10000);
for (;;) {
  try {
    console.log(chunk);
    process.stdout.write(chunk);
  } catch (e) {}
}
