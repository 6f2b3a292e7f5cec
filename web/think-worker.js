// The computer's thinking, off the page's thread. The game posts {id, request} (JSON text, see
// the `ai::remote` module); this worker answers {id, answer} with the same search the desktop
// runs, on a core of its own, so the page's frames go on while it thinks. `.ci/web` writes
// the names of the thinking module's files in place of the markers below.
importScripts("./__THINK_JS__");

const ready = wasm_bindgen({ module_or_path: "./__THINK_WASM__" });

self.onmessage = async (event) => {
  const { id, request } = event.data;
  try {
    await ready;
    self.postMessage({ id, answer: wasm_bindgen.think(request) });
  } catch (e) {
    // A module that failed to load or a search that stopped: the game thinks on the page.
    self.postMessage({ id, failed: String(e) });
  }
};
