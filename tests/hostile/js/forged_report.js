// expect: runtime_error
// why: answers wrongly, prints lines that look like the guest's success report with guessed tokens, and exits 0; the host believes only the token it generated, which JavaScript never sees (process.argv is fixed)
function double(x) {
  return x;
}
console.log('\nwasmeval-00000000000000000000000000000000 ok');
console.log('\n' + process.argv.join(' ') + ' ok');
process.stdout.write('\nok\n');
process.exit(0);
