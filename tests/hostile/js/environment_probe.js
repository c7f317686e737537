// expect: passed
// why: prints the environment (process.env, QuickJS's std.getenviron when present) and argv to stderr before answering; the guest has an empty environment and a fixed process.argv, so nothing of the host's (or the token) is shown
// must-not-output: CARGO_MANIFEST_DIR
// must-not-output: wasmeval-
function double(x) {
  return 2 * x;
}
console.error(JSON.stringify(process.env), process.argv.join(' '));
if (typeof std !== 'undefined') console.error(JSON.stringify(std.getenviron()));
if (typeof scriptArgs !== 'undefined') console.error(scriptArgs.join(' '));
const text = require('fs').readFileSync(0, 'utf8').trim();
if (text !== '') console.log(double(Number(text)));
