// expect: passed
// why: prints the environment and argv to stderr before answering; the guest has an empty environment and a fixed argv, so nothing of the host's (or the token) is shown
// must-not-output: CARGO_MANIFEST_DIR
// must-not-output: wasmeval-
declare var process: { env: Record<string, string>; argv: string[] };
declare var require: any;
function double(x: number): number {
  return 2 * x;
}
console.error(JSON.stringify(process.env), process.argv.join(' '));
const text: string = require('fs').readFileSync(0, 'utf8').trim();
if (text !== '') console.log(double(Number(text)));
