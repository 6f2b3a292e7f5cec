// The deployment players meet: nginx from Debian's packages in front of `oaq-server --web`,
// with the repository's own configuration (deploy/nginx/o-an-quan.conf), HTTPS with a
// certificate made here, on loopback. A phone-sized page on a throttled network (Chromium's
// network emulation: 10 Mbit/s with 40 ms, then Lighthouse's mobile 1.6 Mbit/s with 150 ms) and
// a phone's CPU (this machine's slowed 4×) opens a room link on its first visit, joins and plays
// over wss:// against a second page; the first visit's steps are printed as a table. Checks the
// bytes a first visit puts on the wire before the board is playable against a budget (they are
// the same each run), that every file is downloaded once (nginx's log: the service worker
// takes what the page fetched from the HTTP cache), that the page sends brotli and the
// right caching headers; prints the times.
//
// OAQ_NPM=DIR_WITH_NODE_MODULES node tests/web/deploy.mjs DIST_DIR OUT_DIR OAQ_SERVER_BINARY

import { execFileSync, spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { createInterface } from "node:readline";
import { createRequire } from "node:module";
import {
  asPhone, CHROMIUM, eachPlaysAMove, FOUR_G, openPage, PHONE, press, SLOW_4G, toOnline,
} from "./pages.mjs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(join(resolve(process.env.OAQ_NPM ?? "."), "package.json"));
const { chromium } = require("playwright-core");

const [dist, out, serverBinary] = process.argv.slice(2);
if (!dist || !out || !serverBinary) {
  console.error("usage: node tests/web/deploy.mjs DIST_DIR OUT_DIR OAQ_SERVER_BINARY");
  process.exit(2);
}
const repository = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
// What a first visit may put on the wire before the board is playable: 3.5 MiB when the web
// build was slimmed (3.49 MiB then), 3.6 since players who know each other (friends, profiles,
// challenges, chat: 3.53 MiB, about 1 % more), 3.65 since the game talks to its thinking
// worker (3.60 MiB: the accessibility tree's mirror and the worker's client filled the rest),
// 3.6 again since the search's random keys are made at their first use (3.57 MiB, 2026-12-06),
// 2.5 since the game's module comes in two parts and the first visit waits only for the first
// (2.35 MiB, 2026-12-06; the rest follows once the board is playable).
const BUDGET = 2.5 * 1048576;
// How much slower than this machine's the phone's CPU is (Lighthouse's mobile profile: 4).
const CPU_SLOWDOWN = 4;
// A first visit's steps, as the page (navigation and resource timing, its `oaq:` marks) and the
// game (`game::trace`, `online::timeline`) put them on the performance timeline.
const STEPS = [
  ["the page's HTML arrived", "page"],
  ["the WebGL context made (the page, while the game downloads)", "webgl-context"],
  ["the .wasm's first byte", "wasm-first-byte"],
  ["the .wasm downloaded (compiled as it streamed)", "wasm-downloaded"],
  ["compiled and instantiated: the game's main runs", "main"],
  ["Bevy's plugins added (the renderer, windows, text, UI)", "bevy-plugins-added"],
  ["the art drawn (while the game's plugins are added)", "art-drawn"],
  ["the app built", "app-built"],
  ["start-up systems run", "startup-done"],
  ["the first update", "first-update"],
  ["the canvas sized", "canvas-sized"],
  ["the first frame drawn", "first-frame-drawn"],
  ["the third frame drawn", "frame-3-drawn"],
  ["the fonts arrived", "fonts-loaded"],
  ["the WebSocket asked for", "socket-asked"],
  ["the WebSocket open (the page's callback)", "socket-opened"],
  ["the hello and the room's join sent", "greeting-sent"],
  ["the server's first frame in (the page's callback)", "socket-first-frame"],
  ["the WebSocket open, seen by the game", "socket-open"],
  ["the server's welcome", "welcomed"],
  ["a seat in the room", "seated"],
  ["the board playable", "playable"],
  ["the board drawn (the frame after)", "board-drawn"],
];
const PROFILES = [FOUR_G, SLOW_4G];
await mkdir(out, { recursive: true });
const work = await mkdtemp(join(tmpdir(), "oaq-deploy-"));

let failed = false;
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failed = true;
};
const errors = [];

/// The first visit's steps on `page`'s timeline: [step, ms since navigation began or null].
async function timeline(page) {
  const at = await page.evaluate(() => {
    const marks = Object.fromEntries(performance.getEntriesByType("mark")
      .filter((m) => m.name.startsWith("oaq:"))
      .map((m) => [m.name.slice(4), m.startTime]));
    const navigation = performance.getEntriesByType("navigation")[0];
    const wasm = performance.getEntriesByType("resource").find((e) => e.name.endsWith(".wasm"));
    return { ...marks, page: navigation?.responseEnd, "wasm-first-byte": wasm?.responseStart };
  });
  return STEPS.map(([step, key]) => [step, at[key] ?? null]);
}

/// The steps of every profile's first visit as a Markdown table: each step's time and what it
/// took after the one before.
function printTimeline(results) {
  if (results.length === 0) return;
  const s = (ms) => (ms === null ? "–" : `${(ms / 1000).toFixed(2)} s`);
  console.log(`\nA first visit, step by step (CPU slowed ${CPU_SLOWDOWN}×): at (after the step before)`);
  console.log(`| step | ${results.map((r) => r.profile).join(" | ")} |`);
  console.log(`|---|${results.map(() => "---").join("|")}|`);
  STEPS.forEach(([step], i) => {
    const cells = results.map(({ trace }) => {
      const at = trace[i][1];
      const before = trace.slice(0, i).map(([, t]) => t).filter((t) => t !== null).pop() ?? 0;
      return at === null ? "–" : `${s(at)} (${s(at - before)})`;
    });
    console.log(`| ${step} | ${cells.join(" | ")} |`);
  });
}

/// A port free on loopback now.
const freePort = () => new Promise((ready) => {
  const probe = createServer();
  probe.listen(0, "127.0.0.1", () => {
    const { port } = probe.address();
    probe.close(() => ready(port));
  });
});

// A certificate for 127.0.0.1, and the hash of its key that Chromium is told to trust.
execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
  "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
  "-keyout", join(work, "key.pem"), "-out", join(work, "cert.pem")], { stdio: "ignore" });
const spki = execFileSync("sh", ["-c",
  `openssl x509 -pubkey -noout -in ${join(work, "cert.pem")} | openssl pkey -pubin -outform der`
  + " | openssl dgst -sha256 -binary | base64"]).toString().trim();

// oaq-server behind the proxy, trusting it for the clients' addresses.
const server = spawn(serverBinary, [
  "--listen", "127.0.0.1:0", "--database", join(work, "oaq.sqlite3"), "--web", resolve(dist),
  "--trusted-proxy", "127.0.0.1",
], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, OAQ_LOG: "warn" } });
const upstream = await new Promise((ready, fail) => {
  const lines = createInterface({ input: server.stdout });
  lines.once("line", (line) => {
    const address = line.split(/\s+/).find((w) => w.startsWith("http://"));
    address ? ready(address.replace("http://", "").replace(/\/$/, "")) : fail(new Error(line));
  });
  server.once("exit", (code) => fail(new Error(`oaq-server exited (${code})`)));
});

// nginx with the shipped site, changed only where a test must: its ports on loopback, the
// certificate, the upstream's port, and a log that says which files went out and how big.
const port = await freePort();
const plainPort = await freePort();
let site = await readFile(join(repository, "deploy/nginx/o-an-quan.conf"), "utf8");
site = site
  .replace(/^\s*listen \[::\].*$/gm, "")
  .replace("listen 80;", `listen 127.0.0.1:${plainPort};`)
  .replace("listen 443 ssl http2;", `listen 127.0.0.1:${port} ssl http2;`)
  .replace(/\/etc\/letsencrypt\/live\/oaq\.example\.org\/fullchain\.pem/, join(work, "cert.pem"))
  .replace(/\/etc\/letsencrypt\/live\/oaq\.example\.org\/privkey\.pem/, join(work, "key.pem"))
  .replace("server 127.0.0.1:8080;", `server ${upstream};`);
check(site.includes(upstream) && site.includes(`127.0.0.1:${port} ssl`), "the shipped nginx site takes the test's ports and certificate");
for (const dir of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) await mkdir(join(work, dir));
await writeFile(join(work, "site.conf"), site);
await writeFile(join(work, "nginx.conf"), `
user root;
worker_processes 1;
daemon off;
pid ${join(work, "nginx.pid")};
error_log ${join(work, "error.log")} warn;
events { worker_connections 512; }
http {
  include /etc/nginx/mime.types;
  log_format files '$request_method $uri $status $bytes_sent $http_user_agent';
  access_log ${join(work, "access.log")} files;
  client_body_temp_path ${join(work, "body")};
  proxy_temp_path ${join(work, "proxy")};
  fastcgi_temp_path ${join(work, "fastcgi")};
  uwsgi_temp_path ${join(work, "uwsgi")};
  scgi_temp_path ${join(work, "scgi")};
  include ${join(work, "site.conf")};
}
`);
const nginx = spawn("nginx", ["-c", join(work, "nginx.conf"), "-p", work], { stdio: "inherit" });
const base = `https://127.0.0.1:${port}/`;
for (let i = 0; ; i++) {
  try {
    const socket = await new Promise((ok, fail) => {
      const s = require("node:net").connect(port, "127.0.0.1", () => ok(s));
      s.once("error", fail);
    });
    socket.destroy();
    break;
  } catch (e) {
    if (i > 100) throw new Error("nginx did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/// The access log's lines from `from` on: { method, path, status, bytes, agent }.
async function logged(from = 0) {
  const text = await readFile(join(work, "access.log"), "utf8").catch(() => "");
  return text.split("\n").filter(Boolean).slice(from).map((line) => {
    const [method, path, status, bytes, ...agent] = line.split(" ");
    return { method, path, status: Number(status), bytes: Number(bytes), agent: agent.join(" ") };
  });
}

const browser = await chromium.launch({
  ...CHROMIUM,
  args: [...CHROMIUM.args, `--ignore-certificate-errors-spki-list=${spki}`],
});
const open = (name, options) => openPage(browser, name, options, { out, errors });

const results = [];
try {
  // The page, through the proxy: brotli, and the caching policy of each kind of file.
  const first = await open("A", { viewport: { width: 1280, height: 720 } });
  const page = await first.goto(base);
  const headers = await page.allHeaders();
  check(headers["strict-transport-security"] !== undefined, "HTTPS with Strict-Transport-Security");
  check(headers["cache-control"] === "no-cache", `the page is revalidated (${headers["cache-control"]})`);
  const wasm = await first.evaluate(() =>
    document.querySelector('link[rel="preload"]').getAttribute("href"));
  const probe = await first.evaluate(async (file) => {
    const r = await fetch(file);
    return { cache: r.headers.get("cache-control"), type: r.headers.get("content-type") };
  }, wasm);
  check(probe.cache === "public, max-age=31536000, immutable" && probe.type === "application/wasm",
    `${wasm} is kept for a year (${probe.cache}, ${probe.type})`);

  // The bot API through the proxy: a stream's line passes as it comes, not held in nginx's
  // buffers (the server asks with X-Accel-Buffering), within the page's own origin.
  const botStream = await first.evaluate(async () => {
    const made = async (name) => (await fetch("/api/bot/new", {
      method: "POST",
      body: JSON.stringify({ name, login: `${name.toLowerCase()}-bot`, password: "a bot's password" }),
    })).json();
    const [a, b] = [await made("Deploy"), await made("Proxy")];
    const stream = await fetch("/api/stream/event", { headers: { authorization: `Bearer ${b.token}` } });
    const reader = stream.body.getReader();
    const start = performance.now();
    await fetch(`/api/challenge/${b.player.id}`, {
      method: "POST",
      headers: { authorization: `Bearer ${a.token}` },
      body: JSON.stringify({ rules: "basic", clock: "untimed" }),
    });
    let text = "";
    const deadline = new Promise((r) => setTimeout(() => r({ done: true }), 10000));
    while (!text.includes("challenge")) {
      const { value, done } = await Promise.race([reader.read(), deadline]);
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    reader.cancel();
    return { ms: Math.round(performance.now() - start), text: text.trim(), type: stream.headers.get("content-type") };
  });
  check(botStream.type === "application/x-ndjson" && botStream.text.includes('"type":"challenge"'),
    `a bot's event stream through nginx: the challenge line came after ${botStream.ms} ms`);
  await first.until('[data-screen="title"]', 240);
  check(await first.evaluate(() => window.isSecureContext), "the page is a secure context");
  const worker = await first.evaluate(() => Promise.race([
    navigator.serviceWorker.ready.then(() => true),
    new Promise((r) => setTimeout(() => r(false), 90000)),
  ]));
  check(worker, "the service worker installs over HTTPS");
  const encodings = (await logged()).filter((l) => l.path === `/${wasm}`);
  check(encodings.length >= 1 && encodings[0].bytes < 0.5 * (await readFile(join(dist, wasm))).length,
    `the .wasm goes out compressed (${encodings[0]?.bytes} bytes of ${(await readFile(join(dist, wasm))).length})`);

  await first.context().close();

  for (const [n, profile] of PROFILES.entries()) {
    // The other player, on a desktop page with a fast network, opens a room.
    const a = await open(`A${n}`, { viewport: { width: 1280, height: 720 } });
    await toOnline(a, base);
    await press(a, "Invite"); // A private room, whose link is given.
    await a.until('[data-room-phase="waiting"]', 30);
    const code = await a.attr("data-room");
    // The other player's page is frozen while the phone loads: on this machine the two pages
    // share two cores, and its redrawing as the phone joins (the board at 1280×720, drawn on the
    // CPU) would be counted in the phone's time. Its socket stays open (the network service
    // answers the server's pings); what came is taken once it runs again.
    const aCdp = await a.context().newCDPSession(a);
    await aCdp.send("Page.setWebLifecycleState", { state: "frozen" });

    // A first visit: a fresh browser profile (no cache, no worker), phone-sized, throttled.
    const agent = `o-an-quan-phone-${n}`;
    const phone = await open(`phone ${n}`, {
      ...PHONE, deviceScaleFactor: 2,
      userAgent: `Mozilla/5.0 (Linux; Android 14) Chrome/156.0 Mobile ${agent}`,
    });
    // A phone's CPU: this machine's slowed four times, as Lighthouse's mobile profile does.
    const cdp = await asPhone(phone, profile, CPU_SLOWDOWN);
    let wire = 0;
    const requests = new Map();
    cdp.on("Network.requestWillBeSent", (e) => requests.set(e.requestId, e.request.url));
    const sizes = [];
    cdp.on("Network.loadingFinished", (e) => {
      wire += e.encodedDataLength;
      sizes.push(`${new URL(requests.get(e.requestId) ?? "x:/?").pathname} ${e.encodedDataLength}`);
    });
    const linesBefore = (await logged()).length;
    const started = Date.now();
    await phone.goto(`${base}?room=${code}`);
    const firstPaint = await phone.evaluate(() => new Promise((seen) => {
      new PerformanceObserver((list) => {
        const paint = list.getEntries().find((e) => e.name === "first-contentful-paint");
        if (paint) seen(paint.startTime);
      })
        .observe({ type: "paint", buffered: true });
      setTimeout(() => seen(-1), 10000);
    }));
    await phone.until('[data-screen="playing"][data-room-phase="playing"]', 300);
    const seconds = (Date.now() - started) / 1000;
    const bytes = wire;
    console.log(`  fetched: ${sizes.join(", ")}`);
    // The frame that drew the board is marked as the next one begins.
    await phone.waitForFunction(() => performance.getEntriesByName("oaq:board-drawn").length > 0,
      null, { timeout: 30000 });
    const trace = await timeline(phone);
    // The board came from the first part alone: none of the rest was needed on the way (a
    // function the first visit's profile missed would have fetched it, synchronously).
    const early = await phone.evaluate(() => window.oaqGame.early);
    check(early.length === 0,
      `${profile.name}: the first part of the module was enough for the board (early: ${early.join(", ") || "none"})`);
    await aCdp.send("Page.setWebLifecycleState", { state: "active" });
    await a.until('[data-screen="playing"][data-room-phase="playing"]', 30);
    results.push({ profile: profile.name, seconds, bytes, trace });
    check(trace.every(([, at]) => at !== null),
      `${profile.name}: every step of the first visit is on the page's timeline`);
    // The server's welcome and the room's answer come in one WebSocket frame (the hello says
    // the join follows it), and the game screen comes in the frame the seat does: the three
    // steps are one frame of the game's (each frame is a few hundred milliseconds here).
    const step = (key) => trace[STEPS.findIndex(([, k]) => k === key)][1];
    const together = step("playable") - step("welcomed");
    check(together >= 0 && together < 50,
      `${profile.name}: the welcome, the seat and the board in one frame (${together.toFixed(1)} ms apart)`);
    console.log(`${profile.name}: a room link to a playable board in ${seconds.toFixed(1)} s, `
      + `${bytes} bytes (${(bytes / 1048576).toFixed(2)} MiB) on the wire; `
      + `first paint (the loading screen) at ${(firstPaint / 1000).toFixed(2)} s`);
    check(bytes <= BUDGET, `${profile.name}: at most ${BUDGET / 1048576} MiB before the board is playable`);
    check(firstPaint >= 0 && firstPaint < 3000, `the loading screen shows at once (${firstPaint.toFixed(0)} ms)`);
    await phone.waitForTimeout(500);
    await phone.shot(`phone-${n}-joined.png`);

    // Both play a move, the phone with its keys (the board's place on a phone is the browser
    // test's to check, this one is about the network), over wss://.
    await eachPlaysAMove(phone, a);
    await a.until('[data-ply="2"][data-phase="waiting"]', 60);
    check(true, `${profile.name}: the phone and the other page each play a move over wss://`);
    const rest = await phone.evaluate(() => new Promise((done) => {
      const attached = () => performance.getEntriesByName("oaq:rest-attached").length > 0;
      const started = performance.now();
      const wait = () => (attached() || performance.now() - started > 60000
        ? done({ attached: attached(), asked: performance.getEntriesByName("oaq:rest-asked")[0]?.startTime,
          playable: performance.getEntriesByName("oaq:playable")[0]?.startTime })
        : setTimeout(wait, 200));
      wait();
    }));
    check(rest.attached && rest.asked >= rest.playable,
      `${profile.name}: the rest of the module asked for once the board was playable (at ${(rest.asked / 1000).toFixed(2)} s) and attached`);
    await phone.shot(`phone-${n}-played.png`);
    await a.shot(`a-${n}-played.png`);

    // The worker installs from the HTTP cache: each file went out once for this phone.
    const installed = await phone.evaluate(() => Promise.race([
      navigator.serviceWorker.ready.then(() => true),
      new Promise((r) => setTimeout(() => r(false), 120000)),
    ]));
    check(installed, `${profile.name}: the service worker installs after the game started`);
    await phone.waitForTimeout(1000);
    const lines = (await logged(linesBefore)).filter((l) => l.agent.includes(agent) && l.path !== "/ws");
    const downloads = new Map();
    for (const l of lines.filter((l) => l.status === 200)) {
      downloads.set(l.path, (downloads.get(l.path) ?? 0) + 1);
    }
    const twice = [...downloads].filter(([, count]) => count > 1);
    check(lines.length > 0 && downloads.get(`/${wasm}`) === 1 && twice.length === 0,
      `${profile.name}: each file downloaded once (${downloads.size} files, `
      + `${lines.filter((l) => l.status === 304).length} revalidated; twice: ${twice.map(([p]) => p).join(", ") || "none"})`);

    // A resigns (asked first): the end reaches the phone.
    await a.mouse.click(933, 27); // Resign, on the bar with its flag
    await a.waitForTimeout(400);
    await a.mouse.click(897, 27); // Yes
    await a.until('[data-room-phase="ended"][data-result="resign"]', 30);
    await phone.until('[data-room-phase="ended"][data-result="resign"]', 60);
    check(true, `${profile.name}: the other page resigns and the phone sees the end`);
    await phone.waitForTimeout(500);
    await phone.shot(`phone-${n}-ended.png`);
    await a.context().close();
    await phone.context().close();
  }
  check(errors.length === 0, `no errors on the pages ${errors.join("; ")}`);
} catch (e) {
  console.log(`FAIL ${e.stack ?? e.message}`);
  failed = true;
} finally {
  await browser.close();
  nginx.kill("SIGTERM");
  server.kill("SIGTERM");
  const problems = await readFile(join(work, "error.log"), "utf8").catch(() => "");
  if (failed && problems) console.log(`nginx said:\n${problems}`);
  await rm(work, { recursive: true, force: true });
}
for (const r of results) {
  console.log(`| ${r.profile} | ${r.seconds.toFixed(1)} s | ${(r.bytes / 1048576).toFixed(2)} MiB |`);
}
printTimeline(results);
process.exit(failed ? 1 : 0);
