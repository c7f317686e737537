// The browser sandbox's Web Worker (a module worker): loads wasmeval-browser-sandbox and answers
// each message, a request as JSON text, with {ok: answer JSON} or {error: message}; the Rust side
// posts {started: true} first, once its guest is loaded, when the page's wall clock starts.
// Everything it does is in Rust (browser-sandbox/src/); this file only connects the two.
import init, { evaluate } from './wasmeval_browser_sandbox.js';

const ready = init();

self.onmessage = async (event) => {
  try {
    await ready;
    self.postMessage({ ok: await evaluate(event.data) });
  } catch (error) {
    self.postMessage({ error: String(error && error.message ? error.message : error) });
  }
};
