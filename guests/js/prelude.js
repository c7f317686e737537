// wasmeval's JavaScript prelude: runs in the guest (guests/js/main.c) before the program, as a
// function called with private natives ({ write, readStdin, exit, clock, ticket, ... }). It gives
// programs the parts of node they use in benchmarks: `console`, `process` (argv, env, exit,
// stdout/stderr, stdin events), `require` of `assert`/`node:assert` (and `/strict`),
// `fs.readFileSync` of stdin, `readline`, `util` and `js-md5`, and timers in virtual time. It
// returns what main.c needs: `{ AssertionError, peekTimer, fireTimer, done, decodeArgs, serialize,
// helpers }` (`decodeArgs` and `serialize` for `calls` cases, `helpers` for the bridge).
//
// An assertion case runs in two realms: the candidate's program in one, the test code in another
// (a JSContext of its own, with fresh intrinsics), each with this prelude and then the bridge
// (guests/js/bridge.js) that joins them; whole programs and `calls` cases run in one. Whatever the
// candidate rewrites (`Math.abs`, `JSON.stringify`, `Array.prototype[Symbol.iterator]`, `every`,
// a TypeScript `namespace Math`) is its own realm's, not the tests'.
//
// Every helper also keeps its own references to the built-ins it uses (taken here, before the
// program runs), so a program that rewrites `Object.keys`, `Array.prototype.join` or
// `JSON.stringify` changes its own behaviour, not the helpers'. `require`, `console` and
// `console.assert` are non-configurable (a program can neither replace them nor shadow them with
// `let`), and the `assert` module is frozen.
(function (natives) {
  'use strict';
  const { write, readStdin, exit, clock, ticket } = natives;
  const apply = Reflect.apply;
  const ownKeys = Reflect.ownKeys;
  const getPrototypeOf = Reflect.getPrototypeOf;
  const defineProperty = Reflect.defineProperty;
  const objectKeys = Object.keys;
  const objectIs = Object.is;
  const freeze = Object.freeze;
  const create = Object.create;
  const isArray = Array.isArray;
  const String_ = String;
  const Number_ = Number;
  const Error_ = Error;
  const TypeError_ = TypeError;
  const Symbol_ = Symbol;
  const Map_ = Map;
  const Set_ = Set;
  const Date_ = Date;
  const RegExp_ = RegExp;
  const Promise_ = Promise;
  const hasOwn = Object.prototype.hasOwnProperty;
  const objectToString = Object.prototype.toString;
  const isEnumerable = Object.prototype.propertyIsEnumerable;
  const mapEntries = Map.prototype.entries;
  const mapGet = Map.prototype.get;
  const mapHas = Map.prototype.has;
  const mapSet = Map.prototype.set;
  const mapSize = Object.getOwnPropertyDescriptor(Map.prototype, 'size').get;
  const setValues = Set.prototype.values;
  const setHas = Set.prototype.has;
  const setSize = Object.getOwnPropertyDescriptor(Set.prototype, 'size').get;
  const iteratorNext = getPrototypeOf(new Map_().entries()).next;
  const setIteratorNext = getPrototypeOf(new Set_().values()).next;
  const dateGetTime = Date.prototype.getTime;
  const dateToISOString = Date.prototype.toISOString;
  const regExpToString = RegExp.prototype.toString;
  const errorToString = Error.prototype.toString;
  const functionToString = Function.prototype.toString;
  const stringSlice = String.prototype.slice;
  const stringSplit = String.prototype.split;
  const stringReplace = String.prototype.replace;
  const stringIndexOf = String.prototype.indexOf;
  const stringCharCodeAt = String.prototype.charCodeAt;
  const stringRepeat = String.prototype.repeat;
  const regExpTest = RegExp.prototype.test;
  const arrayPush = Array.prototype.push;
  const arrayJoin = Array.prototype.join;
  const arraySort = Array.prototype.sort;
  const promiseThen = Promise.prototype.then;
  const promiseResolve = Promise.resolve;
  const jsonStringify = JSON.stringify;
  const jsonParse = JSON.parse;
  const numberIsFinite = Number.isFinite;
  const mathMin = Math.min;
  const fromCharCode = String.fromCharCode;
  const encodeURIComponent_ = encodeURIComponent;
  const unescape_ = unescape;

  const call = (f, self, ...args) => apply(f, self, args);
  const push = (array, value) => { call(arrayPush, array, value); };
  const join = (array, separator) => call(arrayJoin, array, separator);
  const has = (object, key) => call(hasOwn, object, key);
  const tag = (value) => call(objectToString, value);
  const isObject = (value) => value !== null && (typeof value === 'object' || typeof value === 'function');
  const isMap = (value) => { try { call(mapSize, value); return true; } catch (_) { return false; } };
  const isSet = (value) => { try { call(setSize, value); return true; } catch (_) { return false; } };
  const isDate = (value) => { try { call(dateGetTime, value); return true; } catch (_) { return false; } };
  const isRegExp = (value) => tag(value) === '[object RegExp]';
  const isError = (value) => isObject(value) && tag(value) === '[object Error]';
  const entriesOf = (map) => {
    const out = [];
    const it = call(mapEntries, map);
    for (let step = call(iteratorNext, it); !step.done; step = call(iteratorNext, it)) push(out, step.value);
    return out;
  };
  const valuesOf = (set) => {
    const out = [];
    const it = call(setValues, set);
    for (let step = call(setIteratorNext, it); !step.done; step = call(setIteratorNext, it)) push(out, step.value);
    return out;
  };
  const enumerableKeys = (object) => {
    const keys = [];
    const all = ownKeys(object);
    for (let i = 0; i < all.length; i++) {
      if (typeof all[i] === 'string' && call(isEnumerable, object, all[i])) push(keys, all[i]);
    }
    return keys;
  };

  // ---- util.inspect and util.format: node's output for the common cases ----
  const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
  const quote = (text) => {
    const q = call(stringIndexOf, text, "'") < 0 ? "'" : call(stringIndexOf, text, '"') < 0 ? '"' : call(stringIndexOf, text, '`') < 0 ? '`' : "'";
    let out = q;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      const code = call(stringCharCodeAt, text, i);
      if (c === q || c === '\\') out += '\\' + c;
      else if (c === '\n') out += '\\n';
      else if (c === '\t') out += '\\t';
      else if (c === '\r') out += '\\r';
      else if (code < 0x20 || code === 0x7f) out += '\\x' + (code < 16 ? '0' : '') + call(Number.prototype.toString, code, 16).toUpperCase();
      else out += c;
    }
    return out + q;
  };
  const functionName = (f) => {
    let name = '';
    try { name = typeof f.name === 'string' ? f.name : ''; } catch (_) { /* a getter threw */ }
    let source = '';
    try { source = call(functionToString, f); } catch (_) { /* not a function after all */ }
    if (call(regExpTest, /^class\b/, source)) return '[class ' + (name || '(anonymous)') + ']';
    return '[Function: ' + (name || '(anonymous)') + ']';
  };
  function inspect(value, depth, seen, indent) {
    if (depth === undefined) depth = 2;
    seen = seen || [];
    indent = indent || '';
    switch (typeof value) {
      case 'string': return quote(value);
      case 'number': return objectIs(value, -0) ? '-0' : String_(value);
      case 'bigint': return String_(value) + 'n';
      case 'symbol': return call(Symbol.prototype.toString, value);
      case 'undefined': return 'undefined';
      case 'boolean': return value ? 'true' : 'false';
    }
    if (value === null) return 'null';
    if (typeof value === 'function' && enumerableKeys(value).length === 0) return functionName(value);
    for (let i = 0; i < seen.length; i++) if (seen[i] === value) return '[Circular *1]';
    if (isError(value)) {
      try { return String_(value.stack ? call(errorToString, value) + '\n' + value.stack : call(errorToString, value)); } catch (_) { return '[Error]'; }
    }
    if (isDate(value)) {
      const time = call(dateGetTime, value);
      return time === time ? call(dateToISOString, value) : 'Invalid Date';
    }
    if (isRegExp(value)) return call(regExpToString, value);
    const array = isArray(value);
    const map = !array && isMap(value);
    const set = !array && !map && isSet(value);
    if (depth < 0) return array ? '[Array]' : map ? '[Map]' : set ? '[Set]' : '[Object]';
    const inner = [...seen, value];
    const items = [];
    const more = indent + '  ';
    const keys = enumerableKeys(value);
    if (array) {
      let holes = 0;
      const shown = mathMin(value.length, 100);
      for (let i = 0; i < shown; i++) {
        if (!has(value, String_(i))) { holes++; continue; }
        if (holes) { push(items, '<' + holes + ' empty item' + (holes > 1 ? 's' : '') + '>'); holes = 0; }
        push(items, inspect(value[i], depth - 1, inner, more));
      }
      if (holes) push(items, '<' + holes + ' empty item' + (holes > 1 ? 's' : '') + '>');
      if (value.length > shown) push(items, '... ' + (value.length - shown) + ' more item' + (value.length - shown > 1 ? 's' : ''));
    } else if (map) {
      const entries = entriesOf(value);
      for (let i = 0; i < entries.length; i++) push(items, inspect(entries[i][0], depth - 1, inner, more) + ' => ' + inspect(entries[i][1], depth - 1, inner, more));
    } else if (set) {
      const values = valuesOf(value);
      for (let i = 0; i < values.length; i++) push(items, inspect(values[i], depth - 1, inner, more));
    }
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (array && call(regExpTest, /^(0|[1-9][0-9]*)$/, key) && Number_(key) < value.length) continue;
      const shownKey = call(regExpTest, identifier, key) ? key : quote(key);
      let shownValue;
      try { shownValue = inspect(value[key], depth - 1, inner, more); } catch (_) { shownValue = '[Getter]'; }
      push(items, shownKey + ': ' + shownValue);
    }
    let prefix = '';
    if (array) prefix = '';
    else if (map) prefix = 'Map(' + call(mapSize, value) + ') ';
    else if (set) prefix = 'Set(' + call(setSize, value) + ') ';
    else {
      const proto = getPrototypeOf(value);
      if (proto === null) prefix = '[Object: null prototype] ';
      else if (typeof value === 'function') prefix = functionName(value) + ' ';
      else {
        let name = '';
        try { name = proto.constructor && proto.constructor.name; } catch (_) { name = ''; }
        if (name && name !== 'Object') prefix = name + ' ';
      }
    }
    const [open, close] = array ? ['[', ']'] : ['{', '}'];
    if (items.length === 0) return prefix + open + close;
    const line = prefix + open + ' ' + join(items, ', ') + ' ' + close;
    let multiline = false;
    for (let i = 0; i < items.length; i++) if (call(stringIndexOf, items[i], '\n') >= 0) multiline = true;
    if (!multiline && line.length + indent.length <= 72) return line;
    return prefix + open + '\n' + more + join(items, ',\n' + more) + '\n' + indent + close;
  }
  function format(...args) {
    const pieces = [];
    let next = 0;
    if (typeof args[0] === 'string' && args.length > 1 && call(stringIndexOf, args[0], '%') >= 0) {
      const text = args[0];
      let out = '';
      next = 1;
      for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (c !== '%' || i + 1 >= text.length) { out += c; continue; }
        const f = text[i + 1];
        if (f === '%') { out += '%'; i++; continue; }
        if (next >= args.length || call(stringIndexOf, 'sdifjoOc', f) < 0) { out += c; continue; }
        const arg = args[next++];
        i++;
        if (f === 's') out += typeof arg === 'string' ? arg : typeof arg === 'bigint' ? String_(arg) + 'n' : inspect(arg, 1);
        else if (f === 'd' || f === 'i') out += typeof arg === 'bigint' ? String_(arg) + 'n' : String_(f === 'i' ? parseInt(arg) : Number_(arg));
        else if (f === 'f') out += String_(parseFloat(arg));
        else if (f === 'j') { try { out += jsonStringify(arg); } catch (_) { out += '[Circular]'; } }
        else if (f === 'c') { /* CSS: ignored */ }
        else out += inspect(arg, 4);
      }
      push(pieces, out);
    }
    for (let i = next; i < args.length; i++) push(pieces, typeof args[i] === 'string' ? args[i] : inspect(args[i]));
    return join(pieces, ' ');
  }

  // ---- assert (node:assert) ----
  class AssertionError extends Error_ {
    constructor(options) {
      const message = options && options.message !== undefined ? String_(options.message) : 'Assertion failed';
      super(message);
      this.name = 'AssertionError';
      this.code = 'ERR_ASSERTION';
      if (options) {
        this.actual = options.actual;
        this.expected = options.expected;
        this.operator = options.operator;
      }
    }
  }
  const fail = (message, actual, expected, operator, describe) => {
    if (isError(message)) throw message;
    if (message === undefined) {
      message = describe ? describe() : 'Assertion failed';
    }
    throw new AssertionError({ message, actual, expected, operator });
  };
  const show = (value) => { try { return inspect(value); } catch (_) { return '[value]'; } };
  function deepEqual(a, b, strict, memo) {
    if (strict ? objectIs(a, b) : (a == b || (a !== a && b !== b))) return true;
    if (!isObject(a) || !isObject(b)) {
      return false;
    }
    if (strict && getPrototypeOf(a) !== getPrototypeOf(b)) return false;
    if (tag(a) !== tag(b)) return false;
    if (isArray(a) !== isArray(b)) return false;
    memo = memo || [];
    for (let i = 0; i < memo.length; i++) if (memo[i][0] === a && memo[i][1] === b) return true;
    memo = [...memo, [a, b]];
    if (isDate(a)) {
      if (!isDate(b) || call(dateGetTime, a) !== call(dateGetTime, b)) return false;
    } else if (isRegExp(a)) {
      if (call(regExpToString, a) !== call(regExpToString, b)) return false;
    } else if (isError(a)) {
      if (a.message !== b.message || a.name !== b.name) return false;
    } else if (typeof a === 'object' && (typeof a.valueOf === 'function') && (a instanceof Number_ || a instanceof String_ || a instanceof Boolean)) {
      if (!objectIs(a.valueOf(), b.valueOf())) return false;
    }
    if (isArray(a) && a.length !== b.length) return false;
    if (isMap(a)) {
      if (!isMap(b) || call(mapSize, a) !== call(mapSize, b)) return false;
      const entries = entriesOf(a);
      for (let i = 0; i < entries.length; i++) {
        const [key, value] = entries[i];
        if (!call(mapHas, b, key) || !deepEqual(value, call(mapGet, b, key), strict, memo)) return false;
      }
    } else if (isSet(a)) {
      if (!isSet(b) || call(setSize, a) !== call(setSize, b)) return false;
      const values = valuesOf(a);
      const others = valuesOf(b);
      for (let i = 0; i < values.length; i++) {
        if (call(setHas, b, values[i])) continue;
        let found = false;
        for (let j = 0; j < others.length && !found; j++) found = isObject(values[i]) && deepEqual(values[i], others[j], strict, memo);
        if (!found) return false;
      }
    }
    const keysA = enumerableKeys(a);
    const keysB = enumerableKeys(b);
    if (keysA.length !== keysB.length) return false;
    for (let i = 0; i < keysA.length; i++) {
      if (!has(b, keysA[i]) || !call(isEnumerable, b, keysA[i])) return false;
      if (!deepEqual(a[keysA[i]], b[keysA[i]], strict, memo)) return false;
    }
    return true;
  }
  const expectedError = (error, expected) => {
    if (expected === undefined) return true;
    if (typeof expected === 'function') {
      if (expected.prototype !== undefined && error instanceof expected) return true;
      if (Error_ === expected || (expected.prototype instanceof Error_)) return false;
      return apply(expected, undefined, [error]) === true;
    }
    if (isRegExp(expected)) return call(regExpTest, expected, String_(error));
    if (isObject(expected)) {
      const keys = objectKeys(expected);
      for (let i = 0; i < keys.length; i++) {
        const want = expected[keys[i]];
        const got = error[keys[i]];
        if (isRegExp(want) && typeof got === 'string' ? !call(regExpTest, want, got) : !deepEqual(got, want, true)) return false;
      }
      return true;
    }
    return false;
  };
  const makeAssert = (strictMode) => {
    const ok = (value, message) => {
      if (!value) fail(message, value, true, '==', () => 'The expression evaluated to a falsy value:\n\n  assert.ok(' + show(value) + ')\n');
    };
    const assert = (value, message) => ok(value, message);
    const strictEqual = (actual, expected, message) => {
      if (!objectIs(actual, expected)) fail(message, actual, expected, 'strictEqual', () => 'Expected values to be strictly equal:\n\n' + show(actual) + ' !== ' + show(expected) + '\n');
    };
    const notStrictEqual = (actual, expected, message) => {
      if (objectIs(actual, expected)) fail(message, actual, expected, 'notStrictEqual', () => 'Expected "actual" to be strictly unequal to: ' + show(expected));
    };
    const deepStrictEqual = (actual, expected, message) => {
      if (!deepEqual(actual, expected, true)) fail(message, actual, expected, 'deepStrictEqual', () => 'Expected values to be strictly deep-equal:\n' + show(actual) + '\n\nshould equal\n\n' + show(expected));
    };
    const notDeepStrictEqual = (actual, expected, message) => {
      if (deepEqual(actual, expected, true)) fail(message, actual, expected, 'notDeepStrictEqual', () => 'Expected "actual" not to be strictly deep-equal to: ' + show(expected));
    };
    const looseEqual = (actual, expected, message) => {
      if (!(actual == expected || (actual !== actual && expected !== expected))) fail(message, actual, expected, '==', () => show(actual) + ' == ' + show(expected));
    };
    const notLooseEqual = (actual, expected, message) => {
      if (actual == expected || (actual !== actual && expected !== expected)) fail(message, actual, expected, '!=', () => show(actual) + ' != ' + show(expected));
    };
    const looseDeepEqual = (actual, expected, message) => {
      if (!deepEqual(actual, expected, false)) fail(message, actual, expected, 'deepEqual', () => 'Expected values to be loosely deep-equal:\n\n' + show(actual) + '\n\nshould loosely deep-equal\n\n' + show(expected));
    };
    const notLooseDeepEqual = (actual, expected, message) => {
      if (deepEqual(actual, expected, false)) fail(message, actual, expected, 'notDeepEqual', () => '"actual" deepEqual "expected"');
    };
    const throws = (block, expected, message) => {
      if (typeof block !== 'function') throw new TypeError_('The "fn" argument must be of type function');
      if (typeof expected === 'string') { message = expected; expected = undefined; }
      let threw = false;
      let error;
      try { block(); } catch (e) { threw = true; error = e; }
      if (!threw) fail(message, undefined, expected, 'throws', () => 'Missing expected exception' + (message ? ': ' + message : '.'));
      if (!expectedError(error, expected)) throw error;
    };
    const doesNotThrow = (block, expected, message) => {
      if (typeof expected === 'string') message = expected;
      try { block(); } catch (e) { fail(message, e, undefined, 'doesNotThrow', () => 'Got unwanted exception.\nActual message: "' + (e && e.message) + '"'); }
    };
    const rejects = async (promiseOrFn, expected, message) => {
      if (typeof expected === 'string') { message = expected; expected = undefined; }
      let threw = false;
      let error;
      try { await (typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn); } catch (e) { threw = true; error = e; }
      if (!threw) fail(message, undefined, expected, 'rejects', () => 'Missing expected rejection.');
      if (!expectedError(error, expected)) throw error;
    };
    const doesNotReject = async (promiseOrFn, expected, message) => {
      try { await (typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn); } catch (e) { fail(typeof expected === 'string' ? expected : message, e, undefined, 'doesNotReject', () => 'Got unwanted rejection.'); }
    };
    const match = (string, regexp, message) => {
      if (typeof string !== 'string' || !call(regExpTest, regexp, string)) fail(message, string, regexp, 'match', () => 'The input did not match the regular expression ' + show(regexp) + '. Input:\n\n' + show(string) + '\n');
    };
    const doesNotMatch = (string, regexp, message) => {
      if (typeof string === 'string' && call(regExpTest, regexp, string)) fail(message, string, regexp, 'doesNotMatch', () => 'The input was expected to not match the regular expression ' + show(regexp));
    };
    const failFn = (message) => fail(message === undefined ? 'Failed' : message, undefined, undefined, 'fail');
    const ifError = (value) => { if (value !== null && value !== undefined) throw value; };
    const members = {
      ok, equal: strictMode ? strictEqual : looseEqual, notEqual: strictMode ? notStrictEqual : notLooseEqual,
      strictEqual, notStrictEqual, deepEqual: strictMode ? deepStrictEqual : looseDeepEqual,
      notDeepEqual: strictMode ? notDeepStrictEqual : notLooseDeepEqual, deepStrictEqual, notDeepStrictEqual,
      throws, doesNotThrow, rejects, doesNotReject, match, doesNotMatch, fail: failFn, ifError, AssertionError,
    };
    const names = objectKeys(members);
    for (let i = 0; i < names.length; i++) defineProperty(assert, names[i], { value: members[names[i]], enumerable: true });
    return assert;
  };
  const assertModule = makeAssert(false);
  const strictModule = makeAssert(true);
  defineProperty(assertModule, 'strict', { value: strictModule, enumerable: true });
  defineProperty(strictModule, 'strict', { value: strictModule, enumerable: true });
  freeze(assertModule);
  freeze(strictModule);

  // ---- output, console ----
  const writeOut = (text) => { write(1, text); };
  const writeErr = (text) => { write(2, text); };
  let groupIndent = '';
  const indented = (text) => groupIndent ? groupIndent + join(call(stringSplit, text, '\n'), '\n' + groupIndent) : text;
  const console_ = {};
  const logTo = (sink) => (...args) => { sink(indented(format(...args)) + '\n'); };
  const counts = create(null);
  const members = {
    log: logTo(writeOut), info: logTo(writeOut), debug: logTo(writeOut),
    error: logTo(writeErr), warn: logTo(writeErr), trace: logTo(writeErr),
    dir: (value) => { writeOut(indented(inspect(value)) + '\n'); },
    table: logTo(writeOut),
    group: (...args) => { if (args.length) writeOut(indented(format(...args)) + '\n'); groupIndent += '  '; },
    groupEnd: () => { groupIndent = call(stringSlice, groupIndent, 2); },
    count: (label) => { label = label === undefined ? 'default' : String_(label); counts[label] = (counts[label] || 0) + 1; writeOut(indented(label + ': ' + counts[label]) + '\n'); },
    countReset: (label) => { counts[label === undefined ? 'default' : String_(label)] = 0; },
    time: () => {}, timeEnd: () => {}, timeLog: () => {},
  };
  members.groupCollapsed = members.group;
  const memberNames = objectKeys(members);
  for (let i = 0; i < memberNames.length; i++) {
    defineProperty(console_, memberNames[i], { value: members[memberNames[i]], writable: true, enumerable: true, configurable: true });
  }
  // A failed console.assert throws an AssertionError (node only prints): HumanEval-X's tests rely
  // on it failing the run. It cannot be replaced: assigning to it (as HumanEval-X's own test
  // prefix does, with a throwing version of its own) is accepted and ignored.
  const consoleAssert = (condition, ...message) => {
    if (!condition) throw new AssertionError({ message: message.length ? 'Assertion failed: ' + format(...message) : 'Assertion failed' });
  };
  defineProperty(console_, 'assert', { get: () => consoleAssert, set: () => {}, enumerable: true, configurable: false });

  // ---- timers, in virtual time ----
  // The clock and the order timers were set in are main.c's, shared with the other realm (when
  // there is one): main.c asks each realm for its next timer (`peekTimer`), lets the wait pass on
  // the guest's clock, and has the realm whose timer is first run it (`fireTimer`).
  let sequence = 0;
  const timers = new Map_();
  const arrayShift = Array.prototype.shift;
  const addTimer = (fn, delay, args, repeat) => {
    if (typeof fn !== 'function') throw new TypeError_('The "callback" argument must be of type function');
    delay = Number_(delay);
    if (!(delay >= 1 && delay <= 2147483647)) delay = 1;
    const id = ++sequence;
    call(mapSet, timers, id, { id, fn, args, at: clock() + delay, delay, repeat, order: ticket() });
    return id;
  };
  const clearTimer = (id) => {
    if (isObject(id) && typeof id[Symbol_.toPrimitive] === 'function') id = id[Symbol_.toPrimitive]();
    call(Map.prototype.delete, timers, id);
  };
  const immediates = [];
  const nextTimer = () => {
    let next;
    const entries = entriesOf(timers);
    for (let i = 0; i < entries.length; i++) {
      const timer = entries[i][1];
      if (!next || timer.at < next.at || (timer.at === next.at && timer.order < next.order)) next = timer;
    }
    return next;
  };
  // `[0, 0, order]` for an immediate, `[1, due, order]` for a timer, null when there is none.
  const peekTimer = () => {
    if (immediates.length) return [0, 0, immediates[0].order];
    const next = nextTimer();
    return next ? [1, next.at, next.order] : null;
  };
  // Runs the timer `peekTimer` named (main.c has moved the clock to its time).
  const fireTimer = () => {
    if (immediates.length) {
      const first = call(arrayShift, immediates);
      apply(first.fn, undefined, first.args);
      return;
    }
    const next = nextTimer();
    if (!next) return;
    if (next.repeat) {
      next.at = clock() + next.delay;
      next.order = ticket();
    } else {
      call(Map.prototype.delete, timers, next.id);
    }
    apply(next.fn, undefined, next.args);
  };
  // Nothing is left to run: a program that set `process.exitCode` exits with it.
  const done = () => {
    if (process_.exitCode) exit(process_.exitCode | 0);
  };
  const immediate = (fn, args) => {
    push(immediates, { fn, args, order: ticket() });
    return -immediates.length;
  };
  const globals = {
    setTimeout: (fn, delay, ...args) => addTimer(fn, delay, args, false),
    setInterval: (fn, delay, ...args) => addTimer(fn, delay, args, true),
    clearTimeout: clearTimer,
    clearInterval: clearTimer,
    setImmediate: (fn, ...args) => immediate(fn, args),
    clearImmediate: () => {},
  };
  if (typeof queueMicrotask !== 'function') {
    globals.queueMicrotask = (fn) => { call(promiseThen, call(promiseResolve, Promise_), fn); };
  }

  // ---- stdin: fs.readFileSync(0), process.stdin events, readline ----
  let stdinText;
  const stdin = () => {
    if (stdinText === undefined) stdinText = readStdin();
    return stdinText;
  };
  const emitter = () => {
    const listeners = create(null);
    const self = {
      on(event, fn) { (listeners[event] = listeners[event] || []).push(fn); if (self.onListen) self.onListen(event); return self; },
      once(event, fn) { return self.on(event, fn); },
      off(event, fn) { const l = listeners[event] || []; const i = l.indexOf(fn); if (i >= 0) l.splice(i, 1); return self; },
      emit(event, ...args) { const l = listeners[event] || []; for (let i = 0; i < l.length; i++) apply(l[i], self, args); return l.length > 0; },
      removeAllListeners() { return self; },
    };
    self.addListener = self.on;
    self.removeListener = self.off;
    return self;
  };
  const stdinStream = emitter();
  let stdinScheduled = false;
  stdinStream.fd = 0;
  stdinStream.isTTY = false;
  stdinStream.setEncoding = () => stdinStream;
  stdinStream.resume = () => stdinStream;
  stdinStream.pause = () => stdinStream;
  stdinStream.onListen = (event) => {
    if ((event === 'data' || event === 'end' || event === 'readable') && !stdinScheduled) {
      stdinScheduled = true;
      immediate(() => {
        const text = stdin();
        if (text.length) stdinStream.emit('data', text);
        stdinStream.emit('end');
        stdinStream.emit('close');
      }, []);
    }
  };
  stdinStream.read = () => { const text = stdin(); stdinText = ''; return text.length ? text : null; };
  const splitLines = (text) => {
    const lines = call(stringSplit, text, /\r?\n/);
    if (lines.length && lines[lines.length - 1] === '') lines.length -= 1;
    return lines;
  };
  const readline = {
    createInterface(options) {
      const rl = emitter();
      let closed = false;
      let lines = null;
      const take = () => { if (lines === null) lines = splitLines(stdin()); return lines; };
      let scheduled = false;
      rl.onListen = (event) => {
        if ((event === 'line' || event === 'close') && !scheduled) {
          scheduled = true;
          immediate(() => {
            const all = take();
            while (all.length && !closed) rl.emit('line', call(Array.prototype.shift, all));
            rl.close();
          }, []);
        }
      };
      rl.close = () => { if (!closed) { closed = true; rl.emit('close'); } };
      rl.question = (query, callback) => { writeOut(String_(query)); const all = take(); callback(all.length ? call(Array.prototype.shift, all) : ''); };
      rl.setPrompt = () => {};
      rl.prompt = () => {};
      rl.pause = () => rl;
      rl.resume = () => rl;
      rl[Symbol_.asyncIterator] = async function* () { const all = take(); while (all.length && !closed) yield call(Array.prototype.shift, all); };
      return rl;
    },
  };
  const notFound = (path) => {
    const error = new Error_("ENOENT: no such file or directory, open '" + String_(path) + "'");
    error.code = 'ENOENT';
    error.errno = -2;
    error.syscall = 'open';
    error.path = String_(path);
    return error;
  };
  const fs = {
    readFileSync(path) {
      if (path === 0 || path === '/dev/stdin' || path === '/proc/self/fd/0') return stdin();
      throw notFound(path);
    },
    existsSync: () => false,
    writeFileSync(path, data) {
      if (path === 1 || path === '/dev/stdout') { writeOut(String_(data)); return; }
      if (path === 2 || path === '/dev/stderr') { writeErr(String_(data)); return; }
      throw notFound(path);
    },
    writeSync(fd, data) { if (fd === 2) writeErr(String_(data)); else if (fd === 1) writeOut(String_(data)); else throw notFound(fd); },
  };

  // ---- md5 (the js-md5 package: md5(text) as hex of its UTF-8 bytes) ----
  const md5 = (text) => {
    const bytes = unescape_(encodeURIComponent_(String_(text)));
    const words = [];
    const n = bytes.length;
    for (let i = 0; i < n; i++) words[i >> 2] |= call(stringCharCodeAt, bytes, i) << ((i % 4) * 8);
    words[n >> 2] |= 0x80 << ((n % 4) * 8);
    const total = (((n + 8) >> 6) + 1) * 16;
    for (let i = 0; i < total; i++) words[i] |= 0;
    words[total - 2] = n * 8;
    const s = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
    const k = [];
    for (let i = 0; i < 64; i++) k[i] = (Math.abs(Math.sin(i + 1)) * 4294967296) | 0;
    let [a0, b0, c0, d0] = [0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476];
    for (let chunk = 0; chunk < total; chunk += 16) {
      let [a, b, c, d] = [a0, b0, c0, d0];
      for (let i = 0; i < 64; i++) {
        let f;
        let g;
        if (i < 16) { f = (b & c) | (~b & d); g = i; } else if (i < 32) { f = (d & b) | (~d & c); g = (5 * i + 1) % 16; } else if (i < 48) { f = b ^ c ^ d; g = (3 * i + 5) % 16; } else { f = c ^ (b | ~d); g = (7 * i) % 16; }
        const sum = (a + f + k[i] + words[chunk + g]) | 0;
        const shift = s[(i >> 4) * 4 + (i % 4)];
        a = d; d = c; c = b;
        b = (b + ((sum << shift) | (sum >>> (32 - shift)))) | 0;
      }
      a0 = (a0 + a) | 0; b0 = (b0 + b) | 0; c0 = (c0 + c) | 0; d0 = (d0 + d) | 0;
    }
    let hex = '';
    const all = [a0, b0, c0, d0];
    for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) { const byte = (all[i] >>> (j * 8)) & 255; hex += (byte < 16 ? '0' : '') + call(Number.prototype.toString, byte, 16); }
    return hex;
  };
  md5.hex = md5;

  // ---- process, util, require ----
  const process_ = {
    argv: ['node', '/job/program.js'],
    env: {},
    platform: 'wasi',
    version: 'v20.0.0',
    versions: { node: '20.0.0' },
    exitCode: undefined,
    exit: (code) => { exit(code === undefined ? (process_.exitCode | 0) : code | 0); },
    stdout: { write: (text) => { writeOut(String_(text)); return true; }, isTTY: false, fd: 1 },
    stderr: { write: (text) => { writeErr(String_(text)); return true; }, isTTY: false, fd: 2 },
    stdin: stdinStream,
    nextTick: (fn, ...args) => { call(promiseThen, call(promiseResolve, Promise_), () => apply(fn, undefined, args)); },
    hrtime: Object.assign(() => [0, 0], { bigint: () => 0n }),
    memoryUsage: () => ({ rss: 0, heapTotal: 0, heapUsed: 0, external: 0 }),
    cwd: () => '/job',
    on: () => process_,
  };
  const util = { inspect: (value, options) => inspect(value, options && options.depth !== undefined ? (options.depth === null ? Infinity : options.depth) : 2), format, isDeepStrictEqual: (a, b) => deepEqual(a, b, true) };
  const modules = {
    assert: assertModule, 'assert/strict': strictModule, fs, readline, util, process: process_,
    'js-md5': md5,
  };
  const require = (name) => {
    name = String_(name);
    const bare = call(stringSlice, name, 0, 5) === 'node:' ? call(stringSlice, name, 5) : name;
    if (has(modules, bare)) return modules[bare];
    const error = new Error_("Cannot find module '" + name + "'");
    error.code = 'MODULE_NOT_FOUND';
    throw error;
  };

  // ---- calls: arguments in, return value out, as plain data ----
  // Arguments are JSON with the tags of calls suites (docs/formats.md): `{"$tuple": [..]}` and
  // `{"$set": [..]}` become arrays and Sets, `{"$dict": [[k, v], ..]}` a Map, `{"$float": "nan"}`
  // a number.
  const decode = (value) => {
    if (isArray(value)) { const out = []; for (let i = 0; i < value.length; i++) push(out, decode(value[i])); return out; }
    if (!isObject(value)) return value;
    const keys = objectKeys(value);
    if (keys.length === 1 && keys[0] === '$tuple') return decode(value.$tuple);
    if (keys.length === 1 && keys[0] === '$set') { const out = new Set_(); const items = decode(value.$set); for (let i = 0; i < items.length; i++) call(Set.prototype.add, out, items[i]); return out; }
    if (keys.length === 1 && keys[0] === '$dict') { const out = new Map_(); const pairs = decode(value.$dict); for (let i = 0; i < pairs.length; i++) call(mapSet, out, pairs[i][0], pairs[i][1]); return out; }
    if (keys.length === 1 && keys[0] === '$float') { const f = value.$float; return f === 'nan' ? NaN : f === '-inf' ? -Infinity : Infinity; }
    const out = {};
    for (let i = 0; i < keys.length; i++) defineProperty(out, keys[i], { value: decode(value[keys[i]]), writable: true, enumerable: true, configurable: true });
    return out;
  };
  const decodeArgs = (text) => {
    const args = decode(jsonParse(text));
    if (!isArray(args)) throw new TypeError_('the arguments of a call must be an array');
    return args;
  };
  // The return value as JSON: null, booleans, numbers (NaN and infinities as `$float`, -0 as
  // `-0.0`), strings,
  // arrays, objects whose prototype is Object.prototype or null, Maps (`$dict`) and Sets (`$set`);
  // anything else (undefined, functions, class instances, symbols, bigints) is not plain data.
  const objectPrototype = Object.prototype;
  const arrayPrototype = Array.prototype;
  // A lone surrogate has no UTF-8 form: such a string cannot be reported, and that is the
  // candidate's error (as in Python), not a garbled report.
  const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;
  const text = (value) => {
    if (call(regExpTest, loneSurrogate, value)) throw new TypeError_('return value has a string that is not valid Unicode (a lone surrogate)');
    return value;
  };
  const plain = (value, depth) => {
    if (depth > 100) throw new TypeError_('return value nested too deeply');
    if (typeof value === 'string') return text(value);
    if (value === null || typeof value === 'boolean') return value;
    if (typeof value === 'number') {
      if (numberIsFinite(value)) return value;
      return { $float: value !== value ? 'nan' : value > 0 ? 'inf' : '-inf' };
    }
    if (isArray(value) && getPrototypeOf(value) === arrayPrototype) {
      const out = [];
      for (let i = 0; i < value.length; i++) push(out, plain(value[i], depth + 1));
      return out;
    }
    if (isObject(value) && typeof value !== 'function') {
      if (isMap(value) && getPrototypeOf(value) === Map_.prototype) {
        const entries = entriesOf(value);
        const out = [];
        for (let i = 0; i < entries.length; i++) push(out, [plain(entries[i][0], depth + 1), plain(entries[i][1], depth + 1)]);
        return { $dict: out };
      }
      if (isSet(value) && getPrototypeOf(value) === Set_.prototype) {
        const values = valuesOf(value);
        const out = [];
        for (let i = 0; i < values.length; i++) push(out, plain(values[i], depth + 1));
        return { $set: out };
      }
      const proto = getPrototypeOf(value);
      if (proto === objectPrototype || proto === null) {
        const out = {};
        const keys = enumerableKeys(value);
        for (let i = 0; i < keys.length; i++) defineProperty(out, text(keys[i]), { value: plain(value[keys[i]], depth + 1), writable: true, enumerable: true, configurable: true });
        if (keys.length === 1 && keys[0][0] === '$') throw new TypeError_('an object whose only key starts with $ is not plain data');
        return out;
      }
    }
    throw new TypeError_('return value of type ' + (value === undefined ? 'undefined' : typeof value === 'object' ? 'object (not a plain object, array, Map or Set)' : typeof value) + ' is not plain data');
  };
  // JSON of a plain value, with -0 written `-0.0` (JSON.stringify writes it `0`), so that the
  // host can tell it from 0 as `Object.is` (deepStrictEqual, strictEqual) does; `==` and
  // deepEqual do not.
  const json = (value) => {
    if (typeof value === 'number') return objectIs(value, -0) ? '-0.0' : jsonStringify(value);
    if (isArray(value)) {
      let out = '[';
      for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + json(value[i]);
      return out + ']';
    }
    if (value !== null && typeof value === 'object') {
      const keys = objectKeys(value);
      let out = '{';
      for (let i = 0; i < keys.length; i++) out += (i ? ',' : '') + jsonStringify(keys[i]) + ':' + json(value[keys[i]]);
      return out + '}';
    }
    return jsonStringify(value);
  };
  const serialize = (value) => json(plain(value, 0));

  const global = globalThis;
  const fixed = (name, value) => { defineProperty(global, name, { value, writable: false, enumerable: false, configurable: false }); };
  fixed('require', require);
  fixed('console', console_);
  const names = objectKeys(globals);
  for (let i = 0; i < names.length; i++) defineProperty(global, names[i], { value: globals[names[i]], writable: true, enumerable: false, configurable: true });
  const module_ = { exports: {} };
  defineProperty(global, 'process', { value: process_, writable: true, enumerable: false, configurable: true });
  defineProperty(global, 'module', { value: module_, writable: true, enumerable: false, configurable: true });
  defineProperty(global, 'exports', { value: module_.exports, writable: true, enumerable: false, configurable: true });
  defineProperty(global, 'global', { value: global, writable: true, enumerable: false, configurable: true });
  // What the bridge (guests/js/bridge.js, loaded after this in an assertion case's two realms)
  // takes from here.
  const helpers = { AssertionError, isMap, isSet, isDate, isError, entriesOf, valuesOf, enumerableKeys };
  return { AssertionError, peekTimer, fireTimer, done, decodeArgs, serialize, helpers };
})
