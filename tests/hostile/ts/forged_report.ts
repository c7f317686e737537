// expect: runtime_error
// why: answers wrongly, prints lines that look like the guest's success report with guessed tokens, and exits 0; the host believes only the token it generated
declare var process: any;
function double(x: number): number {
  return x;
}
console.log('\nwasmeval-00000000000000000000000000000000 ok');
console.log('\n' + (process.argv as string[]).join(' ') + ' ok');
process.stdout.write('\nok\n');
process.exit(0);
