// The browser sandbox's Web Worker (a module worker): loads wasmeval-browser-sandbox and answers
// each message, a request as JSON text, with {ok: answer JSON} or {error: message}. Everything it
// does is in Rust (browser-sandbox/src/); this file only connects the worker's messages to it.
import init, { evaluate } from './wasmeval_browser_sandbox.js';

const ready = init();

self.onmessage = async (event) => {
  const { id, request } = event.data;
  try {
    await ready;
    self.postMessage({ id, ok: await evaluate(request) });
  } catch (error) {
    self.postMessage({ id, error: String(error && error.message ? error.message : error) });
  }
};
