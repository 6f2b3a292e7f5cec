// What the browser tests share: Chromium's flags, the web build served as a static host would,
// a page of the game with its own player (past the first visit's card), and a desktop page's
// move by mouse.

import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { extname, join, normalize, resolve } from "node:path";
import { createInterface } from "node:readline";

/// A browser test's arguments (the web build, the screenshots' folder, made now, and the
/// server's binary) and Playwright's Chromium (from `OAQ_NPM`'s `node_modules`).
export async function setUp(name) {
  const [dist, out, serverBinary] = process.argv.slice(2);
  if (!dist || !out || !serverBinary) {
    console.error(`usage: node tests/web/${name}.mjs DIST_DIR OUT_DIR OAQ_SERVER_BINARY`);
    process.exit(2);
  }
  await mkdir(out, { recursive: true });
  const require = createRequire(join(resolve(process.env.OAQ_NPM ?? "."), "package.json"));
  const { chromium } = require("playwright-core");
  return { dist, out, serverBinary, chromium };
}

/// `oaq-server --web DIST` on a free port of 127.0.0.1, its store in a temporary folder, with
/// `args` besides: its page's address (`http://…/`) and `stop()`, which also removes the store.
export async function startServer(serverBinary, dist, args = []) {
  const data = await mkdtemp(join(tmpdir(), "oaq-test-"));
  const server = spawn(serverBinary, [
    "--listen", "127.0.0.1:0", "--database", join(data, "oaq.sqlite3"), "--web", resolve(dist),
    ...args,
  ], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, OAQ_LOG: "warn" } });
  const base = await new Promise((ready, fail) => {
    const lines = createInterface({ input: server.stdout });
    lines.once("line", (line) => {
      const address = line.split(/\s+/).find((w) => w.startsWith("http://"));
      address ? ready(address.endsWith("/") ? address : `${address}/`) : fail(new Error(line));
    });
    server.once("exit", (code) => fail(new Error(`oaq-server exited (${code})`)));
  });
  const stop = async () => {
    server.kill("SIGTERM");
    await rm(data, { recursive: true, force: true });
  };
  return { base, stop };
}

/// The web build in `dist` served as a static host would, on a free port of 127.0.0.1: each
/// file with its type, a folder's `index.html` for the folder, and `pages` (HTML by path) of
/// the test's own. Its page's address (`http://…/`) and `close()`.
export async function serveFolder(dist, pages = {}) {
  const types = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".ttf": "font/ttf",
    ".ron": "text/plain; charset=utf-8",
  };
  const server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url, "http://x").pathname));
    if (Object.hasOwn(pages, path)) {
      response.writeHead(200, { "content-type": types[".html"] });
      response.end(pages[path]);
      return;
    }
    const file = join(dist, path.endsWith("/") ? path + "index.html" : path);
    try {
      const body = await readFile(file);
      response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
      response.end(body);
    } catch {
      response.writeHead(404);
      response.end();
    }
  });
  await new Promise((ready) => server.listen(0, "127.0.0.1", ready));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}

/// Start counting `page`'s animation frames (`frameRate` reads them).
export const recordFrames = (page) => page.evaluate(() => {
  window.frames_ = [];
  let last = performance.now();
  const tick = (now) => { window.frames_.push(now - last); last = now; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
});

/// The frames `page` drew since `recordFrames` or the last call: how many, their rate and the
/// longest; counting starts over.
export async function frameRate(page) {
  const list = await page.evaluate(() => { const f = window.frames_; window.frames_ = []; return f; });
  if (list.length === 0) return "no frames";
  const mean = list.reduce((a, b) => a + b, 0) / list.length;
  return `${list.length} frames, ${(1000 / mean).toFixed(1)} fps, longest ${Math.max(...list).toFixed(0)} ms`;
}

/// A phone held upright: 390 × 844 CSS pixels, touch, a mobile browser.
export const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

/// The networks a first visit is measured on (Chromium's emulation): a decent 4G, and
/// Lighthouse's mobile profile.
export const FOUR_G = { name: "4G, 10 Mbit/s and 40 ms", down: 10e6, up: 5e6, latency: 40 };
export const SLOW_4G = {
  name: "slow 4G (Lighthouse's mobile), 1.6 Mbit/s and 150 ms", down: 1.6e6, up: 0.75e6, latency: 150,
};

/// `page` on `network` with its CPU slowed `cpu` times (Lighthouse's mobile profile: 4), through
/// Chromium's DevTools protocol; the protocol's session, its network events on.
export async function asPhone(page, network, cpu) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpu });
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false, latency: network.latency,
    downloadThroughput: network.down / 8, uploadThroughput: network.up / 8,
  });
  return cdp;
}

/// Debian's Chromium, headless, drawing WebGL2 with SwiftShader, with nothing calling home.
export const CHROMIUM = {
  executablePath: "/usr/bin/chromium",
  args: [
    "--no-sandbox", "--disable-gpu", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--disable-quic",
  ],
};

/// A page of the game in `browser`, with its own storage (its own player). Page errors go to
/// `errors`; `page.attr`, `page.until` and `page.shot` (into `out`) read the canvas's
/// attributes, wait for them, and take screenshots. `settings: null` keeps none: a first visit.
export async function openPage(
  browser, name, options, { out, errors, settings = "(seen_intro: true, child: Some(false))" },
) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  // Past the first visit's how-to-play card and the online screen's question (a grown-up plays);
// about:blank, visited on the way, has no storage.
  await page.addInitScript((settings) => {
    try {
      if (settings !== null && !localStorage.getItem("o-an-quan/settings.ron")) {
        localStorage.setItem("o-an-quan/settings.ron", settings);
      }
    } catch {}
  }, settings);
  page.on("pageerror", (e) => {
    if (!String(e).includes("Using exceptions for control flow")) errors.push(`${name}: ${e}`);
  });
  page.attr = (attribute) => page.getAttribute("#game", attribute);
  page.until = (selector, seconds) =>
    page.waitForSelector(`#game${selector}`, { timeout: seconds * 1000, state: "attached" });
  page.shot = (file) => page.screenshot({ path: join(out, file) });
  return page;
}

/// A 1280 × 720 page's player sows the first pit of their row that can go right (`K+`): their
/// row is the nearest, at the bottom, pit 1 on the left, whichever side they play.
export async function playFirstLegal(page) {
  // Moves name pits 1–5 on side 0's row and 6–10 on side 1's, in sowing order.
  const legal = (await page.attr("data-legal")).split(/\s+/);
  const pit = ((Number(legal.find((m) => /^\d+\+$/.test(m)).slice(0, -1)) - 1) % 5) + 1;
  const x = 384 + 128 * (pit - 1);
  await page.mouse.click(x, 406);
  await page.until(':not([data-selected="none"])', 20);
  await page.mouse.click(x + 57, 506);
}

/// The phone's player sows the first pit they can, chosen with the keys a phone's keyboard
/// has too (→ picks the first playable pit, X sows it clockwise).
export async function phoneMoves(phone) {
  await phone.keyboard.press("ArrowRight");
  await phone.until(':not([data-selected="none"])', 20);
  await phone.keyboard.press("KeyX");
}

/// A phone's page and a 1280 × 720 page seated in one room each play a move, whoever's turn it
/// is first, until the phone sees the second move played.
export async function eachPlaysAMove(phone, desktop) {
  if ((await phone.attr("data-human")) === "1") {
    await phoneMoves(phone);
    await desktop.until('[data-ply="1"][data-phase="waiting"]', 60);
    await playFirstLegal(desktop);
  } else {
    await playFirstLegal(desktop);
    await phone.until('[data-ply="1"][data-phase="waiting"][data-human="1"]', 60);
    await phoneMoves(phone);
  }
  await phone.until('[data-ply="2"][data-phase="waiting"]', 60);
}

/// A 1280 × 720 page opens `url` and goes from the title to the online screen, connected.
export async function toOnline(page, url) {
  await page.goto(url);
  await page.until('[data-screen="title"]', 240);
  await page.waitForTimeout(1000);
  await page.mouse.click(640, 370); // "Play online", under "Play".
  await page.until('[data-screen="online"][data-link="open"]', 60);
  await page.waitForTimeout(500);
}

/// The same on a phone-sized page (390 × 844), by touch.
export async function toOnlineByTouch(page, url) {
  await page.goto(url);
  await page.until('[data-screen="title"]', 240);
  await page.waitForTimeout(1000);
  await page.touchscreen.tap(195, 440); // "Play online"
  await page.until('[data-screen="online"][data-link="open"]', 60);
  await page.waitForTimeout(500);
}

/// Press the button whose `data-controls` entry starts with `action` (as the game writes it:
/// `Open(Friends)`, `AnswerFriend("ID", true)`, `Say(GoodLuck)`), or that `action` accepts
/// when it is a function, once it is on screen.
export async function press(page, action, seconds = 20) {
  const [x, y] = await where(page, action, seconds);
  await page.mouse.click(x, y);
}

/// Where the button `action` is (as `press` finds it): its centre, in CSS pixels, once two
/// readings 200 ms apart agree (a page still settling, a notice coming or going above the
/// buttons, moves them: a click at the first reading could land on another button).
export async function where(page, action, seconds = 20) {
  const deadline = Date.now() + seconds * 1000;
  const wanted = typeof action === "function" ? action : (c) => c.startsWith(action);
  let last = null;
  for (;;) {
    const controls = (await page.attr("data-controls")) ?? "";
    const found = controls.split(";").find(wanted);
    const at = found ? found.slice(found.lastIndexOf("@") + 1) : null;
    if (at !== null && at === last) return at.split(",").map(Number);
    if (Date.now() > deadline) throw new Error(`no button ${action} on screen: ${controls}`);
    last = at;
    await page.waitForTimeout(200);
  }
}

/// Wait until `test` holds of the canvas's attribute `attribute`; returns its value.
export async function until(page, attribute, test, seconds = 30) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = (await page.attr(attribute)) ?? "";
    if (test(value)) return value;
    if (Date.now() > deadline) throw new Error(`${attribute} stayed ${JSON.stringify(value)}`);
    await page.waitForTimeout(200);
  }
}

/// The words of the page's focus, when it is in the mirror of the accessibility tree.
export const focused = (page) =>
  page.evaluate(() => {
    const e = document.activeElement;
    return e && e.closest("#oaq-a11y") ? e.textContent || e.getAttribute("aria-label") : "";
  });

/// Tab until the focus is on `wanted` (its words, or a test of them); whether it got there.
export async function tabTo(page, wanted, tries = 30) {
  const test = typeof wanted === "function" ? wanted : (t) => t === wanted;
  for (let i = 0; i < tries; i++) {
    if (test(await focused(page))) return true;
    await page.keyboard.press("Tab");
    await page.waitForTimeout(120);
  }
  return test(await focused(page));
}

/// The rest of the game on `page` (made by `openPage`) from the keyboard: whenever it is the
/// player's turn, the first pit the arrows reach, sown with X; until it is over.
export async function playOutByKeys(page) {
  for (let i = 0; i < 600 && (await page.attr("data-phase")) !== "over"; i++) {
    if ((await page.attr("data-phase")) !== "waiting" || (await page.attr("data-human")) !== "1") {
      await page.waitForTimeout(150);
      continue;
    }
    await page.keyboard.press("ArrowRight");
    await page.until(':not([data-selected="none"])', 10);
    await page.keyboard.press("x");
    await page.waitForTimeout(200);
  }
  await page.until('[data-phase="over"]', 60);
}
