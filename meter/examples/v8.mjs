// The metered JavaScript guest in V8 (node's WASI), the way a browser host runs it: the fuel
// global set to a budget after instantiation, `wasmeval.memory_grow` growing the exported memory
// up to a limit. Prints the time, the exit and the fuel used (or the out-of-fuel trap).
//
//   cargo run --release -p wasmeval-meter --example instrument -- ~/.cache/wasmeval/js/js.wasm /tmp/js-metered.wasm
//   node meter/examples/v8.mjs /tmp/js-metered.wasm JOB_FOLDER BUDGET   (JOB_FOLDER: prelude.js, program.js)
//   node meter/examples/v8.mjs ~/.cache/wasmeval/js/js.wasm JOB_FOLDER   (no budget: the unmetered guest)
import { WASI } from 'node:wasi';
import { readFileSync } from 'node:fs';

const [file, job, budgetArg] = process.argv.slice(2);
const FUEL_AT_START = 2n ** 63n - 1n;
const MEMORY_LIMIT = 512 * 2 ** 20;
const wasi = new WASI({
  version: 'preview1',
  args: ['js', '--prelude', '/job/prelude.js', '/job/program.js'],
  preopens: { '/job': job },
  returnOnExit: true,
});
let instance;
let denied = false;
const wasmeval = {
  memory_grow(delta) {
    const memory = instance.exports.memory;
    const old = memory.buffer.byteLength / 65536;
    if ((old + (delta >>> 0)) * 65536 > MEMORY_LIMIT) {
      denied = true;
      return -1;
    }
    return memory.grow(delta >>> 0);
  },
};
const module = await WebAssembly.compile(readFileSync(file));
instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi.wasiImport, wasmeval });
const fuel = instance.exports.wasmeval_fuel;
const budget = budgetArg === undefined ? undefined : BigInt(budgetArg);
if (budget !== undefined) fuel.value = budget - (FUEL_AT_START - fuel.value);
const started = performance.now();
let end;
try {
  end = `exit ${wasi.start(instance)}`;
} catch (error) {
  end = budget !== undefined && fuel.value < 0n ? 'out of fuel' : `trap: ${error.message}`;
}
const ms = (performance.now() - started).toFixed(0);
const used = budget === undefined ? 'unmetered' : `fuel ${budget - (fuel.value > 0n ? fuel.value : 0n)}`;
console.error(`${end}, ${ms} ms, ${used}${denied ? ', memory denied' : ''}`);
