// The computer's thinking, off the page's thread. The game posts {id, request} (JSON text, see
// the `ai::remote` module); this worker answers {id, answer} with the same search the desktop
// runs, on a core of its own, so the page's frames go on while it thinks. `.ci/web` writes
// the names of the thinking module's files and of its endgame table in place of the markers
// below.
importScripts("./__THINK_JS__");

const ready = wasm_bindgen({ module_or_path: "./__THINK_WASM__" });

// The endgame table (0.5 MB, the exact results of positions with up to 8 small stones) comes
// after the module, so the first move does not wait for it: the searches take it between two
// requests once it is here (an opening is no endgame), and go without it if it never comes.
ready
  .then(() => fetch("./__THINK_TABLE__"))
  .then((response) => {
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return response.arrayBuffer();
  })
  .then((bytes) => {
    const refused = wasm_bindgen.take_table(new Uint8Array(bytes));
    if (refused) throw new Error(refused);
  })
  .catch((e) => console.warn(`the thinking worker goes without its endgame table: ${e}`));

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
