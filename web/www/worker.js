// The worker that runs gridsat's long verbs (check, explain, generate...) off the page's
// thread. It is built at load time from this text and wasm-bindgen's glue (gridsat.js), as
// a Blob, so a fresh worker (after Stop, or when a new edit cancels a run) needs no network.
// The compiled WebAssembly module comes from the page in the first message.
/* global wasm_bindgen */
let ready = null;
self.onmessage = async (event) => {
  const { id, verb, request, module } = event.data;
  if (verb === 'init') {
    ready = wasm_bindgen({ module_or_path: module }).then(() => wasm_bindgen.install_panic_hook());
    await ready;
    self.postMessage({ id, answer: { ok: true } });
    return;
  }
  await ready;
  const start = performance.now();
  let answer;
  try {
    answer = JSON.parse(wasm_bindgen.call(verb, JSON.stringify(request)));
  } catch (err) {
    let why = '';
    try { why = wasm_bindgen.last_panic(); } catch (_) { /* the instance is gone */ }
    answer = { ok: false, crashed: true, error: 'gridsat stopped with an internal error: ' + (why || err) };
  }
  self.postMessage({ id, answer, ms: performance.now() - start });
};
