// What a first visit runs of the game's .wasm, for `.ci/web` to cut it in two (docs/web.md,
// "Two parts"): DIST_DIR holds the web build with a module instrumented by
// `wasm-split --instrument`, served by `oaq-server --web`; pages play what players do on their
// first visit, and each page's profile (which functions ran) is written to OUT_DIR as
// `NAME.prof`. What none of them ran arrives after the board is playable.
//
// The visits: a phone's first visit to the title (the how-to-play card, a game against the
// computer, the menu), and a room link opened on a phone while a desktop page waits in the
// room (the join, a move each, the end by resignation), as the deployment test plays it.
//
// OAQ_NPM=DIR_WITH_NODE_MODULES node .ci/split-profile.mjs DIST_DIR OAQ_SERVER_BINARY OUT_DIR
import { mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import {
  asPhone, CHROMIUM, eachPlaysAMove, FOUR_G, openPage, PHONE, phoneMoves, press, startServer,
  toOnline,
} from "../tests/web/pages.mjs";

const [dist, serverBinary, out] = process.argv.slice(2);
if (!dist || !serverBinary || !out) {
  console.error("usage: node .ci/split-profile.mjs DIST_DIR OAQ_SERVER_BINARY OUT_DIR");
  process.exit(2);
}
const require = createRequire(join(resolve(process.env.OAQ_NPM ?? "."), "package.json"));
const { chromium } = require("playwright-core");
await mkdir(out, { recursive: true });

// Phones held upright, each with its browser's name (the game reads it: an iPhone's, an
// Android's); the room link's is drawn at twice the pixels on a 4G network with a phone's CPU,
// as the deployment test's is, so that its steps come in a phone's order (the connection
// opened by the page while the game downloads, taken by the game as it starts).
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 "
  + "(KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1";
const ANDROID = "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) "
  + "Chrome/156.0 Mobile Safari/537.36";
// The profile's bytes: a header and a word for each function of the module.
const PROFILE_ROOM = 4 << 20;

/// The functions `page`'s game has run so far, as `wasm-split --profile` reads them, written
/// into fresh memory past the game's heap (the game never sees it).
async function saveProfile(page, name) {
  const base64 = await page.evaluate((room) => {
    const game = window.oaqGame.instance.exports;
    const at = game.memory.grow(room / 65536) * 65536;
    const length = game.__write_profile(at, room);
    const bytes = new Uint8Array(game.memory.buffer, at, length);
    let text = "";
    for (const byte of bytes) text += String.fromCharCode(byte);
    return btoa(text);
  }, PROFILE_ROOM);
  const bytes = Buffer.from(base64, "base64");
  await writeFile(join(out, `${name}.prof`), bytes);
  console.log(`${name}: ${bytes.length} bytes of profile`);
}

const { base, stop } = await startServer(serverBinary, dist);
const browser = await chromium.launch(CHROMIUM);
const errors = [];
let failed = false;
try {
  // A phone's very first visit: no settings kept, so the how-to-play card comes first.
  const fresh = await openPage(browser, "first visit", { ...PHONE, userAgent: IPHONE },
    { out, errors, settings: null });
  await fresh.goto(base);
  await fresh.until('[data-screen="title"]', 240);
  await fresh.until('[data-overlay="intro"]', 60);
  await fresh.waitForTimeout(1000);
  await fresh.keyboard.press("Escape");
  await fresh.until('[data-overlay="none"]', 30);
  await fresh.waitForTimeout(500);
  await fresh.touchscreen.tap(195, 388); // "Play", above "Play online".
  await fresh.until('[data-screen="playing"]', 60);
  await fresh.waitForTimeout(1000);
  await phoneMoves(fresh);
  await fresh.until('[data-ply="1"]', 30);
  // The computer answers (its worker, its moves' animation).
  await fresh.until('[data-human="1"][data-phase="waiting"]', 120);
  await fresh.keyboard.press("Escape"); // The game's menu, and back.
  await fresh.waitForTimeout(700);
  await fresh.keyboard.press("Escape");
  await fresh.waitForTimeout(700);
  await saveProfile(fresh, "first-visit");
  await fresh.context().close();

  // A room link: a desktop page opens a private room, a phone opens its link and joins.
  const host = await openPage(browser, "host", { viewport: { width: 1280, height: 720 } },
    { out, errors });
  await toOnline(host, base);
  await press(host, "Invite");
  await host.until('[data-room-phase="waiting"]', 30);
  const code = await host.attr("data-room");
  const phone = await openPage(browser, "room link",
    { ...PHONE, deviceScaleFactor: 2, userAgent: ANDROID }, { out, errors });
  const cdp = await asPhone(phone, FOUR_G, 4);
  await phone.goto(`${base}?room=${code}`);
  await phone.until('[data-screen="playing"][data-room-phase="playing"]', 240);
  await host.until('[data-screen="playing"][data-room-phase="playing"]', 60);
  await eachPlaysAMove(phone, host);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  await host.mouse.click(933, 27); // Resign, then Yes.
  await host.waitForTimeout(400);
  await host.mouse.click(897, 27);
  await phone.until('[data-room-phase="ended"][data-result="resign"]', 60);
  await phone.waitForTimeout(700);
  await saveProfile(phone, "room-link");
  await saveProfile(host, "room-host");
  if (errors.length > 0) throw new Error(`errors on the pages: ${errors.join("; ")}`);
} catch (e) {
  console.error(`the first visit's profile could not be made: ${e.stack ?? e}`);
  failed = true;
} finally {
  await browser.close();
  await stop();
}
process.exit(failed ? 1 : 0);
