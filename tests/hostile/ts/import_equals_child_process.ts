// expect: passed
// why: TypeScript's own module syntax (`import x = require(..)`) becomes a plain require after stripping; child_process, fs paths and os do not exist in the guest, so nothing runs and nothing leaks, and the honest answer passes
// must-not-output: root:x:0:0
declare function require(name: string): any;
import fs = require('fs');
const found: string[] = [];
for (const name of ['child_process', 'node:child_process', 'os', 'net', 'qjs:std']) {
  try {
    found.push(name + ':' + typeof require(name));
  } catch (e) {}
}
for (const path of ['/etc/passwd', '/proc/self/environ', '/job/program.js']) {
  try {
    found.push(fs.readFileSync(path, 'utf8'));
  } catch (e) {}
}
if (found.length) console.error('found: ' + found.join('\n'));
function double(x: number): number {
  return 2 * x;
}
const text: string = fs.readFileSync(0, 'utf8').trim();
if (text !== '') console.log(double(Number(text)));
