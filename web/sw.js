// The web app's service worker: once the page has loaded, everything it needs (the page, the
// JavaScript, the .wasm, the assets, the icons) is kept in a cache named for this build, so
// the game against the computer and on one device starts with no network. A new build has a
// new name: it fills its own cache, takes over, and deletes the old one. Online play goes past
// it (the WebSocket is never a fetch), and needs the network.
//
// `.ci/web` writes the build's version and file list in place of the two markers below.
const VERSION = "__VERSION__";
const FILES = __FILES__;
const CACHE = `o-an-quan-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((n) => n.startsWith("o-an-quan-") && n !== CACHE).map((n) => caches.delete(n)),
      ))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  // The page answers every address of its folder (`?room=CODE` included) from the cache.
  const key = request.mode === "navigate" ? "./" : request;
  event.respondWith(
    caches.open(CACHE)
      .then((cache) => cache.match(key, { ignoreSearch: request.mode === "navigate" }))
      .then((kept) => kept ?? fetch(request)),
  );
});
