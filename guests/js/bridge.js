// wasmeval's JavaScript bridge between the two realms of an assertion case (guests/js/main.c):
// the candidate's program runs in one JSContext ('candidate'), the test code in another ('tests',
// with intrinsics of its own, untouched by whatever the candidate rewrites), each with the prelude
// (guests/js/prelude.js) and then this, a function called with the prelude's helpers and the
// natives ({ cross, role, ... }) before the program or the tests run. It returns
// `{ receive, bind }` for main.c. Only assertion cases load it: whole programs and `calls` cases
// run in one realm.
//
// The realms reach each other only through `cross(text)`, which hands a string to the other
// realm's `receive` and returns its answer, a string (main.c). No object of one realm ever reaches
// the other (with one, the other's intrinsics would be in reach: `f.constructor('return
// globalThis')()`). Values cross as tagged JSON, written and read here with built-ins taken before
// any program ran:
//
// - copies, new objects of the receiving realm: primitives (`{"$u":0}` undefined,
//   `{"$n":"nan"|"inf"|"-inf"|"-0"}`, `{"$b":"12"}` a bigint, `{"$sym":"iterator"}` a well-known
//   and `{"$for":"k"}` a registered symbol), arrays `{"$a":[..]}`, objects
//   `{"$o":[[key, value], ..],"p":1}` (`"p":0`: a null prototype), Maps `{"$m":[[k, v], ..]}`, Sets
//   `{"$s":[..]}`, Dates `{"$d":ms}`, RegExps `{"$r":[source, flags]}`, typed arrays
//   `{"$t":[class, ..]}` and built-in errors `{"$e":[name, message, stack]}`; `{"$ref":n}` is the
//   n-th of them in the same message again (shared parts and cycles keep their shape);
// - references: `{"$mine":id,"k":"f"|"a"|"o"}` is an object of the sender's (a function, an
//   array, another object), which the receiver holds as a proxy (the tests) or as a function that
//   calls it (the candidate); `{"$yours":id}` is the receiver's own object coming back.
//
// The candidate's realm copies plain data only (arrays and data-only objects of its own
// `Array.prototype`/`Object.prototype` or none, Maps, Sets, Dates, RegExps, typed arrays, errors of
// the built-in classes) and lends the rest by reference, class instances and functions: the tests'
// proxy asks for each property, call or `new`, so classes, methods, generators and promises behave
// as in one realm. The tests' realm copies everything but functions, which it lends to be called
// and nothing else (its `receive` does nothing more): the candidate can only call, with copied
// arguments, a function the tests gave it. An argument that was copied (array, object, Map, Set)
// comes back as the call left it, and the caller's own is updated in place (a function that sorts
// its argument), but never one of the tests' built-ins. A returned copy is the tests' own: later
// changes on either side do not reach the other (as in Python's isolated judge). What cannot
// cross: a symbol of a program's own and values nested deeper than 1,000 levels (a TypeError where
// the value was to cross).
//
// The tests' realm takes nothing on the candidate's word but values: it binds only the names it
// asked for, and reads the answers with its own built-ins. In the candidate's realm,
// `Error.prepareStackTrace` is a plain property (see the end), and this file's own arrays are
// written by defining, so that a setter on the candidate's `Array.prototype` cannot change its
// answers.
(function (prelude, natives) {
  'use strict';
  const { AssertionError, isMap, isSet, isDate, isError, entriesOf, valuesOf, enumerableKeys } = prelude;
  const { cross, role } = natives;
  // The built-ins this uses, taken before the program or the tests run (as the prelude's are).
  const apply = Reflect.apply;
  const ownKeys = Reflect.ownKeys;
  const getPrototypeOf = Reflect.getPrototypeOf;
  const defineProperty = Reflect.defineProperty;
  const objectIs = Object.is;
  const create = Object.create;
  const isArray = Array.isArray;
  const String_ = String;
  const Error_ = Error;
  const TypeError_ = TypeError;
  const ReferenceError_ = ReferenceError;
  const Map_ = Map;
  const Set_ = Set;
  const Date_ = Date;
  const RegExp_ = RegExp;
  const hasOwn = Object.prototype.hasOwnProperty;
  const objectToString = Object.prototype.toString;
  const mapGet = Map.prototype.get;
  const mapSet = Map.prototype.set;
  const mapSize = Object.getOwnPropertyDescriptor(Map.prototype, 'size').get;
  const dateGetTime = Date.prototype.getTime;
  const regExpTest = RegExp.prototype.test;
  const arrayJoin = Array.prototype.join;
  const jsonStringify = JSON.stringify;
  const jsonParse = JSON.parse;
  const objectPrototype = Object.prototype;
  const arrayPrototype = Array.prototype;
  const construct = Reflect.construct;
  const reflectGet = Reflect.get;
  const reflectSet = Reflect.set;
  const reflectHas = Reflect.has;
  const deleteProperty = Reflect.deleteProperty;
  const getOwnPropertyDescriptor = Reflect.getOwnPropertyDescriptor;
  const Proxy_ = Proxy;
  const BigInt_ = BigInt;
  const symbolFor = Symbol.for;
  const symbolKeyFor = Symbol.keyFor;
  const functionBind = Function.prototype.bind;
  const mapHas = Map.prototype.has;
  const mapDelete = Map.prototype.delete;
  const setAdd = Set.prototype.add;
  const setHas = Set.prototype.has;
  const setDelete = Set.prototype.delete;
  const stringMatch = String.prototype.match;
  const regExpSource = Object.getOwnPropertyDescriptor(RegExp.prototype, 'source').get;
  const regExpFlags = Object.getOwnPropertyDescriptor(RegExp.prototype, 'flags').get;
  // A typed array's class name (undefined for anything else), and the classes by name.
  const typedArrayName = Object.getOwnPropertyDescriptor(getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;
  const typedArrayLength = Object.getOwnPropertyDescriptor(getPrototypeOf(Uint8Array.prototype), 'length').get;
  const typedArrays = create(null);
  const typedArrayList = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
    Float32Array, Float64Array, BigInt64Array, BigUint64Array];
  for (let i = 0; i < typedArrayList.length; i++) typedArrays[typedArrayList[i].name] = typedArrayList[i];
  // Indirect: evaluates in the global scope, where `const` and `class` bindings are.
  const evalGlobal = eval;
  // The well-known symbols, by name (they are the runtime's, the same in every realm).
  const wellKnown = [];
  const symbolNames = ['iterator', 'asyncIterator', 'hasInstance', 'toPrimitive', 'toStringTag', 'species',
    'isConcatSpreadable', 'match', 'matchAll', 'replace', 'search', 'split', 'unscopables'];
  for (let i = 0; i < symbolNames.length; i++) wellKnown[i] = Symbol[symbolNames[i]];
  // The built-in error classes (and the prelude's AssertionError), whose errors cross between
  // realms as copies (name, message, stack): [prototype, name, class].
  const errorClasses = [];
  const errorList = [Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError, AssertionError];
  if (typeof AggregateError === 'function') errorList[errorList.length] = AggregateError;
  if (typeof InternalError === 'function') errorList[errorList.length] = InternalError;
  for (let i = 0; i < errorList.length; i++) errorClasses[i] = [errorList[i].prototype, errorList[i].name, errorList[i]];
  const global = globalThis;
  const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

  const call = (f, self, ...args) => apply(f, self, args);
  // A descriptor of an ordinary property holding `value`, with no prototype: a `get` or `value`
  // put on the candidate's `Object.prototype` does not change it.
  const field = (value) => ({ __proto__: null, value, writable: true, enumerable: true, configurable: true });
  // Appends by defining, not setting: a setter on the candidate's `Array.prototype` sees nothing.
  const push = (array, value) => { defineProperty(array, array.length, field(value)); };
  const join = (array, separator) => call(arrayJoin, array, separator);
  const has = (object, key) => call(hasOwn, object, key);
  const isObject = (value) => value !== null && (typeof value === 'object' || typeof value === 'function');
  const isRegExp = (value) => call(objectToString, value) === '[object RegExp]';

  const tests = role === 'tests';
  const maxDepth = 1000;
  const local = [];
  const localIds = new Map_();
  const remote = new Map_();
  const remoteIds = new Map_();
  const reservedWords = create(null);
  const reservedList = ['await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete',
    'do', 'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'implements', 'import', 'in',
    'instanceof', 'interface', 'let', 'new', 'null', 'package', 'private', 'protected', 'public', 'return', 'static',
    'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'yield',
    '$$wasmevalValue'];
  for (let i = 0; i < reservedList.length; i++) reservedWords[reservedList[i]] = true;
  const cannotCross = (what) => new TypeError_(what + ' cannot cross between the tests and the program');

  // The built-in error class `value` is an instance of (by its prototype), as [prototype, name, class].
  const errorClassOf = (value) => {
    const proto = getPrototypeOf(value);
    for (let i = 0; i < errorClasses.length; i++) if (errorClasses[i][0] === proto) return errorClasses[i];
    return undefined;
  };
  // Whether an object of the candidate's is plain data: its realm's Object.prototype or none, and
  // own data properties that hold no function.
  const isPlainObject = (value) => {
    const proto = getPrototypeOf(value);
    if (proto !== objectPrototype && proto !== null) return false;
    const keys = ownKeys(value);
    for (let i = 0; i < keys.length; i++) {
      const descriptor = getOwnPropertyDescriptor(value, keys[i]);
      if (descriptor !== undefined && (!has(descriptor, 'value') || typeof descriptor.value === 'function')) return false;
    }
    return true;
  };
  // How an object crosses: 'a', 'o', 'm', 's', 'd', 'r', 't' (a typed array) or 'e' for a copy,
  // undefined when lent.
  const copyKind = (value) => {
    if (typeof value === 'function') return undefined;
    const typed = call(typedArrayName, value);
    if (typed !== undefined) return tests || getPrototypeOf(value) === typedArrays[typed].prototype ? 't' : undefined;
    if (tests) {
      if (isArray(value)) return 'a';
      if (isMap(value)) return 'm';
      if (isSet(value)) return 's';
      if (isDate(value)) return 'd';
      if (isRegExp(value)) return 'r';
      if (isError(value)) return 'e';
      return 'o';
    }
    const proto = getPrototypeOf(value);
    if (isArray(value)) return proto === arrayPrototype ? 'a' : undefined;
    if (isMap(value)) return proto === Map_.prototype ? 'm' : undefined;
    if (isSet(value)) return proto === Set_.prototype ? 's' : undefined;
    if (isDate(value)) return proto === Date_.prototype ? 'd' : undefined;
    if (proto === RegExp_.prototype && isRegExp(value)) return 'r';
    if (errorClassOf(value) !== undefined) return 'e';
    return isPlainObject(value) ? 'o' : undefined;
  };
  const lend = (value, kind) => {
    let id = call(mapGet, localIds, value);
    if (id === undefined) {
      id = local.length;
      push(local, value);
      call(mapSet, localIds, value, id);
    }
    return '{"$mine":' + id + ',"k":"' + kind + '"}';
  };
  const encodeSymbol = (symbol) => {
    for (let i = 0; i < wellKnown.length; i++) if (wellKnown[i] === symbol) return '{"$sym":"' + symbolNames[i] + '"}';
    const key = symbolKeyFor(symbol);
    if (key !== undefined) return '{"$for":' + jsonStringify(key) + '}';
    throw cannotCross('a symbol of its own');
  };
  // `value` as the bridge's JSON; `memo` maps the objects copied so far in this message to their
  // order.
  const pack = (value, memo, depth) => {
    switch (typeof value) {
      case 'string': return jsonStringify(value);
      case 'number':
        if (value !== value) return '{"$n":"nan"}';
        if (value === Infinity) return '{"$n":"inf"}';
        if (value === -Infinity) return '{"$n":"-inf"}';
        if (objectIs(value, -0)) return '{"$n":"-0"}';
        return String_(value);
      case 'boolean': return value ? 'true' : 'false';
      case 'undefined': return '{"$u":0}';
      case 'bigint': return '{"$b":"' + String_(value) + '"}';
      case 'symbol': return encodeSymbol(value);
    }
    if (value === null) return 'null';
    const yours = call(mapGet, remoteIds, value);
    if (yours !== undefined) return '{"$yours":' + yours + '}';
    const seen = call(mapGet, memo, value);
    if (seen !== undefined) return '{"$ref":' + seen + '}';
    const kind = copyKind(value);
    if (kind === undefined) return lend(value, typeof value === 'function' ? 'f' : isArray(value) ? 'a' : 'o');
    if (depth >= maxDepth) throw cannotCross('a value nested more than ' + maxDepth + ' levels deep');
    call(mapSet, memo, value, call(mapSize, memo));
    const items = [];
    if (kind === 'a') {
      const length = value.length;
      for (let i = 0; i < length; i++) push(items, pack(value[i], memo, depth + 1));
      return '{"$a":[' + join(items, ',') + ']}';
    }
    if (kind === 'm') {
      const entries = entriesOf(value);
      for (let i = 0; i < entries.length; i++) push(items, '[' + pack(entries[i][0], memo, depth + 1) + ',' + pack(entries[i][1], memo, depth + 1) + ']');
      return '{"$m":[' + join(items, ',') + ']}';
    }
    if (kind === 's') {
      const values = valuesOf(value);
      for (let i = 0; i < values.length; i++) push(items, pack(values[i], memo, depth + 1));
      return '{"$s":[' + join(items, ',') + ']}';
    }
    if (kind === 'd') return '{"$d":' + pack(call(dateGetTime, value), memo, depth + 1) + '}';
    if (kind === 't') {
      push(items, '"' + call(typedArrayName, value) + '"');
      const length = call(typedArrayLength, value);
      for (let i = 0; i < length; i++) push(items, pack(value[i], memo, depth + 1));
      return '{"$t":[' + join(items, ',') + ']}';
    }
    if (kind === 'r') return '{"$r":[' + jsonStringify(call(regExpSource, value)) + ',' + jsonStringify(call(regExpFlags, value)) + ']}';
    if (kind === 'e') {
      const known = errorClassOf(value);
      let name = known ? known[1] : 'Error';
      if (!known) { try { if (typeof value.name === 'string') name = value.name; } catch (_) { /* a getter threw */ } }
      const message = getOwnPropertyDescriptor(value, 'message');
      let stack = '';
      try { if (typeof value.stack === 'string') stack = value.stack; } catch (_) { /* a getter threw */ }
      return '{"$e":[' + jsonStringify(name) + ',' + jsonStringify(message && typeof message.value === 'string' ? message.value : '') + ',' + jsonStringify(stack) + ']}';
    }
    const keys = enumerableKeys(value);
    for (let i = 0; i < keys.length; i++) push(items, '[' + jsonStringify(keys[i]) + ',' + pack(value[keys[i]], memo, depth + 1) + ']');
    return '{"$o":[' + join(items, ',') + '],"p":' + (getPrototypeOf(value) === null ? 0 : 1) + '}';
  };
  const at = (node, key) => (isObject(node) && has(node, key) ? node[key] : undefined);
  const index = (value, length) => {
    if (typeof value !== 'number' || !(value >= 0 && value < length) || value % 1 !== 0) throw new TypeError_('the bridge got a reference to nothing');
    return value;
  };
  const list = (value) => {
    if (!isArray(value)) throw new TypeError_('the bridge got a malformed value');
    return value;
  };
  // A value from the bridge's JSON (parsed); `memo` lists the objects made so far from this
  // message, in order.
  const unpack = (node, memo) => {
    if (node === null || typeof node !== 'object') return node;
    if (has(node, '$a')) {
      const items = list(node.$a);
      const out = [];
      push(memo, out);
      for (let i = 0; i < items.length; i++) push(out, unpack(items[i], memo));
      return out;
    }
    if (has(node, '$o')) {
      const pairs = list(node.$o);
      const out = node.p === 0 ? create(null) : {};
      push(memo, out);
      for (let i = 0; i < pairs.length; i++) {
        const pair = list(pairs[i]);
        defineProperty(out, String_(pair[0]), field(unpack(pair[1], memo)));
      }
      return out;
    }
    if (has(node, '$m')) {
      const pairs = list(node.$m);
      const out = new Map_();
      push(memo, out);
      for (let i = 0; i < pairs.length; i++) {
        const pair = list(pairs[i]);
        const key = unpack(pair[0], memo);
        call(mapSet, out, key, unpack(pair[1], memo));
      }
      return out;
    }
    if (has(node, '$s')) {
      const items = list(node.$s);
      const out = new Set_();
      push(memo, out);
      for (let i = 0; i < items.length; i++) call(setAdd, out, unpack(items[i], memo));
      return out;
    }
    if (has(node, '$t')) {
      const parts = list(node.$t);
      const Class = typedArrays[String_(parts[0])];
      if (Class === undefined) throw new TypeError_('the bridge got a malformed value');
      const out = new Class(parts.length - 1);
      for (let i = 1; i < parts.length; i++) out[i - 1] = unpack(parts[i], memo);
      push(memo, out);
      return out;
    }
    if (has(node, '$d')) {
      const out = new Date_(unpack(node.$d, memo));
      push(memo, out);
      return out;
    }
    if (has(node, '$r')) {
      const parts = list(node.$r);
      const out = new RegExp_(String_(parts[0]), String_(parts[1]));
      push(memo, out);
      return out;
    }
    if (has(node, '$e')) {
      const parts = list(node.$e);
      const name = String_(parts[0]);
      let Class = Error_;
      for (let i = 0; i < errorClasses.length; i++) if (errorClasses[i][1] === name) Class = errorClasses[i][2];
      const message = String_(parts[1]);
      const out = Class === AssertionError ? new AssertionError({ message })
        : Class.length === 2 ? new Class([], message) : new Class(message);
      if (Class === Error_ && name !== 'Error') defineProperty(out, 'name', { __proto__: null, value: name, writable: true, configurable: true });
      if (parts[2]) defineProperty(out, 'stack', { __proto__: null, value: String_(parts[2]), writable: true, configurable: true });
      push(memo, out);
      return out;
    }
    if (has(node, '$ref')) return memo[index(node.$ref, memo.length)];
    if (has(node, '$n')) return node.$n === 'nan' ? NaN : node.$n === 'inf' ? Infinity : node.$n === '-inf' ? -Infinity : -0;
    if (has(node, '$u')) return undefined;
    if (has(node, '$b')) return BigInt_(String_(node.$b));
    if (has(node, '$sym')) {
      for (let i = 0; i < symbolNames.length; i++) if (symbolNames[i] === node.$sym) return wellKnown[i];
      throw new TypeError_('the bridge got an unknown symbol');
    }
    if (has(node, '$for')) return symbolFor(String_(node.$for));
    if (has(node, '$yours')) return local[index(node.$yours, local.length)];
    if (has(node, '$mine')) {
      const id = index(node.$mine, Infinity);
      let held = call(mapGet, remote, id);
      if (held === undefined) {
        held = tests ? handle(id, node.k) : caller(id);
        call(mapSet, remote, id, held);
        call(mapSet, remoteIds, held, id);
      }
      return held;
    }
    throw new TypeError_('the bridge got a malformed value');
  };
  // The tests' realm's built-ins: its global object, the objects its globals hold (`Math`,
  // `JSON`, `console`, the classes...) and the classes' prototypes, which no write-back touches,
  // even when the tests hand one to the candidate. The names are taken now, before the tests run;
  // the set is made at the first write-back (most tests have none).
  const builtinNames = tests ? ownKeys(global) : [];
  let builtins;
  const isBuiltin = (value) => {
    if (builtins === undefined) {
      builtins = new Set_();
      call(setAdd, builtins, global);
      for (let i = 0; i < builtinNames.length; i++) {
        const held = getOwnPropertyDescriptor(global, builtinNames[i]);
        if (held === undefined || !isObject(held.value)) continue;
        call(setAdd, builtins, held.value);
        const proto = typeof held.value === 'function' ? getOwnPropertyDescriptor(held.value, 'prototype') : undefined;
        if (proto !== undefined && isObject(proto.value)) call(setAdd, builtins, proto.value);
      }
    }
    return call(setHas, builtins, value);
  };
  // What a copied container is, to update one in place: 'a', 'm', 's', 'o', or undefined.
  const containerKind = (value) => {
    if (!isObject(value) || typeof value === 'function' || call(mapGet, remoteIds, value) !== undefined) return undefined;
    if (tests && isBuiltin(value)) return undefined;
    if (isArray(value)) return 'a';
    if (isMap(value)) return 'm';
    if (isSet(value)) return 's';
    if (isDate(value) || isRegExp(value) || isError(value)) return undefined;
    return 'o';
  };
  // Makes `target` (an argument of the caller's) hold what `source` (its copy, as the call left it)
  // holds, keeping `target` and the containers in it that are still of the same kind, and
  // writing only what changed (an argument the call did not change may be frozen).
  const refill = (target, source, visited) => {
    const kind = containerKind(target);
    if (kind === undefined || kind !== containerKind(source)) return;
    for (let i = 0; i < visited.length; i++) if (visited[i] === target) return;
    push(visited, target);
    const merge = (was, now) => {
      const same = containerKind(was);
      if (same !== undefined && same === containerKind(now)) {
        refill(was, now, visited);
        return was;
      }
      return now;
    };
    const put = (key, now) => {
      const was = target[key];
      const merged = merge(was, now);
      if (!objectIs(was, merged) || !has(target, key)) target[key] = merged;
    };
    if (kind === 'a') {
      for (let i = 0; i < source.length; i++) put(i, source[i]);
      if (target.length !== source.length) target.length = source.length;
    } else if (kind === 'm') {
      // Entries whose key is not an object keep their place and values; the rest are replaced.
      const entries = entriesOf(source);
      const before = entriesOf(target);
      const keep = new Map_();
      for (let i = 0; i < entries.length; i++) {
        const key = entries[i][0];
        if (!isObject(key) && call(mapHas, target, key)) {
          call(mapSet, keep, key, true);
          const was = call(mapGet, target, key);
          const merged = merge(was, entries[i][1]);
          if (!objectIs(was, merged)) call(mapSet, target, key, merged);
        }
      }
      for (let i = 0; i < before.length; i++) if (!call(mapHas, keep, before[i][0])) call(mapDelete, target, before[i][0]);
      for (let i = 0; i < entries.length; i++) if (!call(mapHas, keep, entries[i][0])) call(mapSet, target, entries[i][0], entries[i][1]);
    } else if (kind === 's') {
      const values = valuesOf(source);
      const before = valuesOf(target);
      const keep = new Set_();
      for (let i = 0; i < values.length; i++) if (!isObject(values[i]) && call(setHas, target, values[i])) call(setAdd, keep, values[i]);
      for (let i = 0; i < before.length; i++) if (!call(setHas, keep, before[i])) call(setDelete, target, before[i]);
      for (let i = 0; i < values.length; i++) if (!call(setHas, keep, values[i])) call(setAdd, target, values[i]);
    } else {
      const gone = enumerableKeys(target);
      for (let i = 0; i < gone.length; i++) if (!has(source, gone[i])) deleteProperty(target, gone[i]);
      const keys = enumerableKeys(source);
      for (let i = 0; i < keys.length; i++) put(keys[i], source[keys[i]]);
    }
  };
  // Sends `text` to the other realm: its answer, or what it threw. `args` (a call's) get back
  // what the call left in their copies.
  const request = (text, args) => {
    const answer = jsonParse(cross(text));
    const memo = [];
    if (has(answer, 'err')) throw unpack(answer.err, memo);
    const value = unpack(at(answer, 'ok'), memo);
    const back = at(answer, 'back');
    if (args !== undefined && isArray(back)) {
      for (let i = 0; i < back.length && i < args.length; i++) if (back[i] !== null) refill(args[i], unpack(back[i], memo), []);
    }
    return value;
  };
  const callRequest = (op, id, self, args) => {
    const memo = new Map_();
    const items = [];
    for (let i = 0; i < args.length; i++) push(items, pack(args[i], memo, 0));
    // A plain call's `this` is the caller's global object, which is not the other realm's business.
    const thisText = op === 'call' ? ',"this":' + pack(self === global ? undefined : self, memo, 0) : '';
    return request('{"op":"' + op + '","id":' + id + thisText + ',"args":[' + join(items, ',') + ']}', args);
  };
  const keyText = (key) => ',"key":' + pack(key, new Map_(), 0);
  // The candidate's realm holds a function the tests lent as a function that calls it (not a
  // constructor, nothing else).
  const caller = (id) => ({ call(...args) { return callRequest('call', id, this, args); } }).call;
  // The tests' realm holds an object the candidate lent as a proxy that asks for everything. Its
  // target (an array for an array, a function for a function) only gives `Array.isArray` and
  // `typeof` their answers; what the proxy reports must agree with the target's own
  // non-configurable properties (an array's `length`), the rest is the candidate's to say.
  const handle = (id, kind) => {
    const target = kind === 'f' ? call(functionBind, function () {}, null) : kind === 'a' ? [] : {};
    const ask = (op, extra) => request('{"op":"' + op + '","id":' + id + extra + '}');
    const pinned = (key) => { const own = getOwnPropertyDescriptor(target, key); return own !== undefined && !own.configurable; };
    return new Proxy_(target, {
      get: (_, key) => ask('get', keyText(key)),
      set: (_, key, value) => ask('set', keyText(key) + ',"value":' + pack(value, new Map_(), 0)) === true,
      has: (_, key) => pinned(key) || ask('has', keyText(key)) === true,
      deleteProperty: (_, key) => !pinned(key) && ask('delete', keyText(key)) === true,
      ownKeys: () => {
        const keys = list(ask('keys', ''));
        const all = ownKeys(target);
        for (let i = 0; i < all.length; i++) {
          let found = false;
          for (let j = 0; j < keys.length && !found; j++) found = keys[j] === all[i];
          if (!found && pinned(all[i])) push(keys, all[i]);
        }
        return keys;
      },
      getOwnPropertyDescriptor: (_, key) => {
        const described = ask('describe', keyText(key));
        if (pinned(key)) {
          return { value: isObject(described) && has(described, 'value') ? described.value : 0, writable: true, enumerable: false, configurable: false };
        }
        if (!isObject(described)) return undefined;
        defineProperty(described, 'configurable', field(true));
        return described;
      },
      defineProperty: (_, key, descriptor) => !pinned(key) && descriptor.configurable !== false &&
        ask('define', keyText(key) + ',"descriptor":' + pack(descriptor, new Map_(), 0)) === true,
      getPrototypeOf: () => ask('proto', ''),
      setPrototypeOf: () => false,
      isExtensible: () => true,
      preventExtensions: () => false,
      apply: (_, self, args) => callRequest('call', id, self, args),
      construct: (_, args) => callRequest('new', id, undefined, args),
    });
  };
  // The candidate's globals the tests asked for, by name: [read, assign].
  const globalAccess = new Map_();
  // `[name, function or null]` for each of `names` bound in this (the candidate's) realm to
  // something other than undefined, `const` and `class` bindings included.
  const findGlobals = (names) => {
    const valid = [];
    if (isArray(names)) {
      for (let i = 0; i < names.length; i++) {
        const name = names[i];
        if (typeof name === 'string' && call(regExpTest, identifier, name) && !reservedWords[name]) push(valid, name);
      }
    }
    // A reader and a writer per name, compiled at once (one by one if a name does not compile).
    const accessor = (name) => '[() => ' + name + ', ($$wasmevalValue) => { ' + name + ' = $$wasmevalValue; }]';
    let access;
    try {
      let source = '[';
      for (let i = 0; i < valid.length; i++) source += accessor(valid[i]) + ',';
      access = evalGlobal(source + ']');
    } catch (_) {
      access = [];
      for (let i = 0; i < valid.length; i++) {
        try { access[i] = evalGlobal(accessor(valid[i])); } catch (_) { access[i] = [() => undefined]; }
      }
    }
    const found = [];
    for (let i = 0; i < valid.length; i++) {
      let value;
      try { value = access[i][0](); } catch (_) { continue; }
      if (value === undefined) continue;
      call(mapSet, globalAccess, valid[i], access[i]);
      push(found, [valid[i], typeof value === 'function' ? value : null]);
    }
    return found;
  };
  const describe = (descriptor, memo) => {
    if (descriptor === undefined) return '{"$u":0}';
    const fields = has(descriptor, 'value') ? ['value', 'writable'] : ['get', 'set'];
    let text = '{"$o":[["enumerable",' + (descriptor.enumerable ? 'true' : 'false') + ']';
    for (let i = 0; i < fields.length; i++) text += ',["' + fields[i] + '",' + pack(descriptor[fields[i]], memo, 0) + ']';
    return text + '],"p":1}';
  };
  // Answers a request of the other realm's (`request` above), in text; never throws.
  const receive = (text) => {
    const memo = new Map_();
    try {
      const message = jsonParse(text);
      const op = at(message, 'op');
      const inbound = [];
      // The tests' realm lends functions to be called, and does nothing else for the candidate.
      if (tests && op !== 'call') throw new TypeError_('the tests lend the program nothing but functions to call');
      if (op === 'globals') return '{"ok":' + pack(findGlobals(at(message, 'names')), memo, 0) + '}';
      if (op === 'global' || op === 'assign') {
        const access = call(mapGet, globalAccess, at(message, 'name'));
        if (access === undefined) throw new ReferenceError_(String_(at(message, 'name')) + ' is not defined');
        const value = op === 'global' ? access[0]() : access[1](unpack(at(message, 'value'), inbound));
        return '{"ok":' + pack(value, memo, 0) + '}';
      }
      const object = local[index(at(message, 'id'), local.length)];
      if (op === 'call' || op === 'new') {
        const nodes = list(at(message, 'args'));
        const self = op === 'call' ? unpack(at(message, 'this'), inbound) : undefined;
        const args = [];
        for (let i = 0; i < nodes.length; i++) push(args, unpack(nodes[i], inbound));
        const value = op === 'call' ? apply(object, self, args) : construct(object, args);
        const items = [];
        for (let i = 0; i < nodes.length; i++) {
          const copied = isObject(nodes[i]) && (has(nodes[i], '$a') || has(nodes[i], '$o') || has(nodes[i], '$m') || has(nodes[i], '$s') || has(nodes[i], '$t'));
          push(items, copied ? '' : 'null');
        }
        const result = pack(value, memo, 0);
        for (let i = 0; i < items.length; i++) if (items[i] === '') items[i] = pack(args[i], memo, 0);
        return '{"ok":' + result + ',"back":[' + join(items, ',') + ']}';
      }
      const key = unpack(at(message, 'key'), inbound);
      let value;
      if (op === 'get') value = reflectGet(object, key);
      else if (op === 'set') value = reflectSet(object, key, unpack(at(message, 'value'), inbound));
      else if (op === 'has') value = reflectHas(object, key);
      else if (op === 'delete') value = deleteProperty(object, key);
      else if (op === 'define') value = defineProperty(object, key, unpack(at(message, 'descriptor'), inbound));
      else if (op === 'proto') value = getPrototypeOf(object);
      else if (op === 'describe') return '{"ok":' + describe(getOwnPropertyDescriptor(object, key), memo) + '}';
      else if (op === 'keys') {
        const all = ownKeys(object);
        value = [];
        for (let i = 0; i < all.length; i++) {
          if (typeof all[i] === 'string') push(value, all[i]);
          else { try { encodeSymbol(all[i]); push(value, all[i]); } catch (_) { /* a symbol of its own stays */ } }
        }
      } else throw new TypeError_('the bridge has no operation ' + String_(op));
      return '{"ok":' + pack(value, memo, 0) + '}';
    } catch (error) {
      try {
        return '{"err":' + pack(error, new Map_(), 0) + '}';
      } catch (_) {
        return '{"err":{"$e":["Error","the program threw something that cannot cross to the tests",""]}}';
      }
    }
  };
  // In the tests' realm, before the test code runs: the candidate's bindings of the words `source`
  // mentions (property names and words in strings too, as `globalThis.f` needs), but for what this
  // realm has itself (its built-ins, `require`, `console`...), and of `entry` (the task's entry
  // point, bound even where this realm has a built-in of that name), as globals here: functions
  // and classes as proxies, other values read from the candidate's realm at each use.
  const identifiers = /[A-Za-z_$][\w$]*/g;
  const bind = (source, entry) => {
    const found = call(stringMatch, String_(source), identifiers) || [];
    if (typeof entry === 'string') push(found, entry);
    const names = [];
    const chosen = create(null);
    for (let i = 0; i < found.length; i++) {
      const name = found[i];
      if (chosen[name] || reservedWords[name]) continue;
      chosen[name] = true;
      if (name !== entry && name in global) continue;
      push(names, name);
    }
    if (names.length === 0) return;
    const asked = create(null);
    for (let i = 0; i < names.length; i++) asked[names[i]] = true;
    const bound = list(request('{"op":"globals","names":' + jsonStringify(names) + '}'));
    for (let i = 0; i < bound.length; i++) {
      const name = list(bound[i])[0];
      const value = bound[i][1];
      // Only a name asked for, once: the answer is the candidate's realm's to make, and a `Math`
      // there must not become the tests' `Math`.
      if (typeof name !== 'string' || asked[name] !== true) continue;
      asked[name] = false;
      if (value !== null) {
        defineProperty(global, name, { value, writable: true, enumerable: false, configurable: true });
        continue;
      }
      const nameText = jsonStringify(name);
      defineProperty(global, name, {
        get: () => request('{"op":"global","name":' + nameText + '}'),
        set: (value_) => { request('{"op":"assign","name":' + nameText + ',"value":' + pack(value_, new Map_(), 0) + '}'); },
        enumerable: false,
        configurable: true,
      });
    }
  };
  if (role === 'candidate') {
    // `Error.prepareStackTrace` would be called with a CallSite per frame on the stack, the tests'
    // frames included, and `getFunction()` of one is a function of the tests' realm: a way into
    // it. Here it is a plain property that nothing calls (stacks stay text).
    let prepare;
    if (!defineProperty(Error_, 'prepareStackTrace', { get: () => prepare, set: (value) => { prepare = value; }, enumerable: false, configurable: false })) {
      throw new Error_('Error.prepareStackTrace cannot be replaced');
    }
  }

  return { receive, bind };
})
