// The web app's service worker: once the page has loaded, everything it needs (the page, the
// JavaScript, the .wasm, the assets, the icons) is kept in a cache named for this build, so
// the game against the computer and on one device starts with no network. A new build has a
// new name: it fills its own cache, takes over, and deletes the old one. Online play goes past
// it (the WebSocket is never a fetch), and needs the network. Pushes from the server (the
// player's move in a game by days, a challenge) are shown as notifications, one per game, and
// open the game when tapped.
//
// `.ci/web` writes the build's version and file list in place of the two markers below.
const VERSION = "__VERSION__";
const FILES = __FILES__;
const CACHE = `o-an-quan-${VERSION}`;

// The page registers the worker once the game runs, so every file it needs is already in the
// browser's HTTP cache: nothing is downloaded twice. The files named for their content (the
// game's .wasm and .js, the endgame table) never change and are taken as they are; the others
// are asked again only if changed (a revalidation: "304 Not Modified" when they are the same).
const named_for_content = (file) => /-[0-9a-f]{16}\.(wasm|js|tb)$/.test(file);
// The computer's thinking worker (its script, module and endgame table) is kept when the game
// first starts it, not at install: a first visit, often on a phone's network, does not wait for
// it, and a game that never meets the computer never downloads it. Until then, offline, the
// game thinks on the page.
// The puzzle set (thousands of puzzles) likewise, when the Puzzles screen first opens.
const on_first_use = (file) =>
  /^(think-worker|oaq-think|endgame-8)-/.test(file) || file.startsWith("assets/puzzles/");

self.addEventListener("install", (event) => {
  const requests = FILES.filter((f) => f !== "./" && !on_first_use(f)).map((f) => new Request(f, {
    cache: named_for_content(f) ? "force-cache" : "no-cache",
  }));
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => Promise.all([cache.addAll(requests), keepPage(cache)]))
      .then(() => self.skipWaiting()),
  );
});

// The page is kept as "./" but was loaded from the address the player opened (a room link,
// `?room=CODE`): ask for that one, which the HTTP cache holds, rather than download "./".
async function keepPage(cache) {
  const scope = new URL(self.registration.scope);
  const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const page = open.map((c) => new URL(c.url))
    .find((url) => url.origin === scope.origin && url.pathname === scope.pathname);
  const response = await fetch(new Request(page ? page.href : "./", { cache: "no-cache" }));
  if (!response.ok) throw new Error(`the page: HTTP ${response.status}`);
  await cache.put("./", response);
}

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
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(key, { ignoreSearch: request.mode === "navigate" });
    if (kept) return kept;
    const response = await fetch(request);
    // The file's path within the site (the worker's folder), as FILES names it.
    const scope = new URL(self.registration.scope).pathname;
    const file = url.pathname.startsWith(scope) ? url.pathname.slice(scope.length) : "";
    if (response.ok && FILES.includes(file) && on_first_use(file)) {
      await cache.put(request, response.clone());
    }
    return response;
  })());
});

// A push from the server: its message, written in the player's language, shown; a later one
// for the same game replaces it (`tag`).
self.addEventListener("push", (event) => {
  let message = null;
  try {
    message = event.data ? event.data.json() : null;
  } catch {
    message = null;
  }
  if (!message || typeof message.title !== "string") return;
  event.waitUntil(self.registration.showNotification(message.title, {
    body: String(message.body ?? ""),
    tag: String(message.tag ?? ""),
    icon: "icons/icon-192.png",
    data: { url: String(message.url ?? "./") },
  }));
});

// Tapped: the game, at the address the message names (only on this site), in a tab already
// open if there is one.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? "./", self.registration.scope);
  if (url.origin !== self.location.origin) return;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const tab = open.find((c) => new URL(c.url).origin === url.origin);
    if (tab) {
      await tab.focus();
      return tab.navigate(url.href);
    }
    return self.clients.openWindow(url.href);
  })());
});
