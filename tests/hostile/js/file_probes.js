// expect: passed
// why: looks for QuickJS's std/os modules, node's fs/child_process, dynamic import and WebAssembly, and prints whatever host file it can reach before answering; none of them exists in the guest (no quickjs-libc, no module loader, fs reads only stdin), so nothing leaks and the honest answer passes
// must-not-output: root:x:0:0
function double(x) {
  return 2 * x;
}
const found = [];
for (const name of ['std', 'os', 'scriptArgs', 'bjson', 'WebAssembly', 'Deno', 'Bun']) {
  if (typeof globalThis[name] !== 'undefined') found.push(name);
}
for (const path of ['/etc/passwd', '/proc/self/environ', '../../../../etc/passwd', '/job/program.js', '/job/prelude.js']) {
  try {
    found.push(require('fs').readFileSync(path, 'utf8'));
  } catch (e) {}
}
for (const name of ['child_process', 'node:child_process', 'os', 'net', 'http', 'worker_threads', 'std', 'qjs:std', 'qjs:os']) {
  try {
    found.push(name + ':' + typeof require(name));
  } catch (e) {}
}
import('std').then((m) => found.push('import std'), () => {});
import('/etc/passwd').then((m) => found.push('import passwd'), () => {});
Promise.resolve().then(() => {
  if (found.length) console.error('found: ' + found.join('\n'));
});
const text = require('fs').readFileSync(0, 'utf8').trim();
if (text !== '') console.log(double(Number(text)));
