// expect: wrong_answer
// why: answers wrongly, then rewrites the built-ins and globals the assertion helpers might use (Object.is, Object.keys, JSON.stringify, Array.prototype.join, Function.prototype.call/apply, Error, console.assert, require, the assert module) so that a failed comparison would look like a pass; the helpers keep their own references, require/console/console.assert cannot be replaced and the assert module is frozen, so the wrong answer is still caught
function double(x) {
  return x + 1;
}
Object.is = () => true;
Object.keys = () => [];
JSON.stringify = () => '"4"';
Array.prototype.join = () => '';
Function.prototype.call = function () { return true; };
Function.prototype.apply = function () { return true; };
Reflect.apply = () => true;
globalThis.Error = function () { return {}; };
try { console.assert = () => {}; } catch (e) {}
try { Object.defineProperty(console, 'assert', { value: () => {} }); } catch (e) {}
try { globalThis.require = () => ({ strictEqual() {} }); } catch (e) {}
try { require('node:assert').strictEqual = () => {}; } catch (e) {}
try { Object.setPrototypeOf(require('node:assert'), null); } catch (e) {}
