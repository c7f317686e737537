/// <reference path="/etc/passwd" />
/// <reference types="node" />
// expect: passed
// why: triple-slash directives that name host files are comments to the stripper: nothing is read on the host or in the guest, and the honest answer passes
// must-not-output: root:x:0:0
declare var require: any;
function double(x: number): number {
  return 2 * x;
}
const text: string = require('fs').readFileSync(0, 'utf8').trim();
if (text !== '') console.log(double(Number(text)));
