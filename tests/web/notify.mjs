// Notifications end to end in a real browser against `oaq-server --web DIST`: page A (in
// Vietnamese) presses "Notify this device"; its browser's push subscription (its push manager
// answers with an endpoint on this machine: the test's push service, since a real one is on the
// internet) reaches the server with the page's language. A player by WebSocket plays A a game
// by days; A goes; the move is pushed: the test's push service checks the request and decrypts
// it with the subscription's keys (RFC 8291), and delivers it to A's service worker through
// Chromium's DevTools protocol (`ServiceWorker.deliverPushMessage`), which shows it, in
// Vietnamese, one notification per game. Prints what it checks; screenshots in the output.
//
// OAQ_NPM=DIR_WITH_NODE_MODULES node --experimental-websocket tests/web/notify.mjs DIST_DIR OUT_DIR OAQ_SERVER_BINARY

import { createDecipheriv, createECDH, hkdfSync, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { CHROMIUM, openPage, playFirstLegal, press, toOnline, until, setUp, startServer } from "./pages.mjs";

const { dist, out, serverBinary, chromium } = await setUp("notify");

// The device's keys (a browser keeps them; here the test does, to read what it is sent).
const device = createECDH("prime256v1");
device.generateKeys();
const secret = randomBytes(16);
const b64url = (b) => Buffer.from(b).toString("base64url");

/// RFC 8291's `aes128gcm` content, opened with the device's private key and secret.
function decrypt(body) {
  const salt = body.subarray(0, 16);
  const idlen = body[20];
  const senderKey = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  const shared = device.computeSecret(senderKey);
  const info = Buffer.concat([Buffer.from("WebPush: info\0"), device.getPublicKey(), senderKey]);
  const ikm = Buffer.from(hkdfSync("sha256", shared, secret, info, 32));
  const key = Buffer.from(hkdfSync("sha256", ikm, salt, "Content-Encoding: aes128gcm\0", 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, "Content-Encoding: nonce\0", 12));
  const decipher = createDecipheriv("aes-128-gcm", key, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = plain.length - 1;
  while (end > 0 && plain[end] === 0) end--;
  if (plain[end] !== 2) throw new Error("not the last record's padding");
  return JSON.parse(plain.subarray(0, end).toString());
}

// The test's push service.
const pushed = [];
const service = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    pushed.push({ path: req.url, headers: req.headers, body: Buffer.concat(chunks) });
    res.writeHead(201).end();
  });
});
await new Promise((ok) => service.listen(0, "127.0.0.1", ok));
const endpoint = `http://127.0.0.1:${service.address().port}/push/a`;

const { base, stop } = await startServer(serverBinary, dist, ["--push-loopback"]);

/// A player by WebSocket: `ask` sends and waits for the first answer `want` takes.
async function player(name) {
  const ws = new WebSocket(`${base.replace("http", "ws")}ws`);
  const seen = [];
  const waiting = [];
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    const w = waiting.find((w) => w.want(msg));
    if (w) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve(msg);
    } else {
      seen.push(msg);
    }
  };
  await new Promise((ok, fail) => { ws.onopen = ok; ws.onerror = fail; });
  const p = {
    send: (msg) => ws.send(JSON.stringify(msg)),
    wait: (want, seconds = 20) => new Promise((resolve, reject) => {
      const old = seen.find(want);
      if (old) {
        seen.splice(seen.indexOf(old), 1);
        return resolve(old);
      }
      waiting.push({ want, resolve });
      setTimeout(() => reject(new Error(`${name}: no answer`)), seconds * 1000);
    }),
    ask: (msg, want) => { p.send(msg); return p.wait((m) => m.type === "error" || want(m)); },
  };
  await p.ask({ type: "hello", protocol: 1, name }, (m) => m.type === "welcome");
  return p;
}

/// The moves legal now in `p`'s room (the server names them when refusing a move).
async function legal(p, ply) {
  const refused = await p.ask({ type: "move", ply, move: "swap" }, () => false);
  return refused.legal;
}

const browser = await chromium.launch(CHROMIUM);
let failed = false;
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failed = true;
};
const errors = [];

try {
  const a = await openPage(browser, "A", { viewport: { width: 1280, height: 720 } }, {
    out, errors, settings: "(seen_intro: true, child: Some(false), language: vi, name: \"Bà\")",
  });
  const context = a.context();
  await context.grantPermissions(["notifications"], { origin: new URL(base).origin });
  // The browser's push manager answers with the test's push service (the real ones are on
  // the internet), with this device's keys.
  await a.addInitScript((fake) => {
    PushManager.prototype.subscribe = async () => ({ endpoint: fake.endpoint, toJSON: () => fake });
  }, { endpoint, keys: { p256dh: b64url(device.getPublicKey()), auth: b64url(secret) } });
  await toOnline(a, base);
  await press(a, "Open(Games)");
  await press(a, "Open(Notifications)");
  await press(a, "NotifyDevice");
  await until(a, "data-push", (v) => v === "subscribed:1");
  check(true, "A's device is notified: its subscription reached the server");
  await a.shot("notifications.png");

  // A game by days against Minh, past its first moves; A goes; Minh moves.
  const minh = await player("Minh");
  const created = await minh.ask(
    { type: "create", rules: "basic", clock: { days: 1 }, first: "me" }, (m) => m.type === "created");
  const code = created.code;
  await a.goto(`${base}?room=${code}`);
  await a.until('[data-screen="playing"][data-room-phase="playing"]', 240);
  await minh.ask({ type: "move", ply: 0, move: (await legal(minh, 0))[0] }, (m) => m.type === "moved");
  await a.until('[data-ply="1"][data-phase="waiting"][data-human="1"]', 30);
  await a.shot("board.png");
  await playFirstLegal(a);
  await minh.wait((m) => m.type === "moved" && m.ply === 1);
  await a.goto("about:blank");
  await new Promise((r) => setTimeout(r, 500));
  await minh.ask({ type: "move", ply: 2, move: (await legal(minh, 2))[0] }, (m) => m.type === "moved");
  const deadline = Date.now() + 15000;
  while (!pushed.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  check(pushed.length === 1, `the move was pushed to A's device (${pushed.length})`);
  const request = pushed[0];
  check(request.headers["content-encoding"] === "aes128gcm" && request.headers.topic === code &&
    /^vapid t=.+, k=.+/.test(request.headers.authorization ?? ""),
    `as Web Push: aes128gcm, VAPID, topic ${request.headers.topic}`);
  const message = decrypt(request.body);
  check(message.title === "Đến lượt bạn" && message.body.includes("Minh") && message.tag === code,
    `it decrypts with the device's keys, in Vietnamese: ${JSON.stringify(message)}`);

  // Delivered to A's service worker, twice (the same game): one notification, the last.
  const cdp = await context.newCDPSession(a);
  const registration = new Promise((found) => {
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const r = registrations.find((r) => r.scopeURL.startsWith(base) && !r.isDeleted);
      if (r) found(r.registrationId);
    });
  });
  await cdp.send("ServiceWorker.enable");
  const registrationId = await registration;
  const origin = new URL(base).origin;
  const again = { ...message, body: `${message.body} (2)` };
  const deliver = (m) => cdp.send("ServiceWorker.deliverPushMessage",
    { origin, registrationId, data: JSON.stringify(m) });
  await deliver(message);
  await deliver(again);
  const worker = context.serviceWorkers().find((w) => w.url().startsWith(base)) ??
    await context.waitForEvent("serviceworker");
  // A worker still starting may miss a delivery (either one): the last message again every 2 s
  // until it is the one shown (the same game's, so still one notification: more ends the wait).
  let shown = [];
  const settled = () => shown.length > 1 || (shown.length === 1 && shown[0].body === again.body);
  for (let i = 0; i < 100 && !settled(); i++) {
    shown = await worker.evaluate(async () => (await self.registration.getNotifications())
      .map((n) => ({ title: n.title, body: n.body, tag: n.tag })));
    if (!settled()) {
      await new Promise((r) => setTimeout(r, 200));
      if (i % 10 === 9) await deliver(again);
    }
  }
  check(shown.length === 1 && shown[0].title === "Đến lượt bạn" && shown[0].body === again.body &&
    shown[0].tag === code, `the service worker shows one notification for the game: ${JSON.stringify(shown)}`);
} catch (e) {
  check(false, `${e.stack ?? e}`);
} finally {
  check(errors.length === 0, `no page errors${errors.length ? `: ${errors.join("; ")}` : ""}`);
  await browser.close();
  await stop();
  service.close();
}
process.exit(failed ? 1 : 0);
