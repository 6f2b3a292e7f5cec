// Quick pairing in real browsers against `oaq-server --web DIST` with short waves: pages A and
// B press Play now at 3+2 and are paired into one room, whose game both boards show; page C,
// alone in the pool, is offered the computer after a wave, takes it, and plays an unrated game
// against it on its own board. Buttons are pressed where the canvas's `data-controls` says.
// Prints what it checks; screenshots in the output.
//
// OAQ_NPM=DIR_WITH_NODE_MODULES node tests/web/pool.mjs DIST_DIR OUT_DIR OAQ_SERVER_BINARY

import { CHROMIUM, openPage, press, toOnline, until, setUp, startServer } from "./pages.mjs";

const { dist, out, serverBinary, chromium } = await setUp("pool");

const { base, stop } = await startServer(serverBinary, dist, ["--pool-wave-secs", "0.5"]);

const browser = await chromium.launch(CHROMIUM);
let failed = false;
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failed = true;
};
const errors = [];
const desktop = { viewport: { width: 1280, height: 720 } };
const open = (name, settings) => openPage(browser, name, desktop, { out, errors, settings });

try {
  const a = await open("A", "(seen_intro: true, child: Some(false), name: \"An\")");
  const b = await open("B", "(seen_intro: true, child: Some(false), language: vi, name: \"Bình\")");
  for (const p of [a, b]) {
    await toOnline(p, base);
    await press(p, "Open(PlayNow)");
    await until(p, "data-page", (v) => v === "playnow");
  }
  await a.shot("play-now.png");
  // 3+2 is the second of the grid.
  await press(a, "Pool(1)");
  await until(a, "data-pool", (v) => v === "waiting" || v.startsWith("alone"));
  await a.shot("play-now-waiting.png");
  await press(b, "Pool(1)");
  for (const p of [a, b]) {
    await p.until('[data-screen="playing"][data-room-phase="playing"]', 30);
  }
  const [roomA, roomB] = [await a.attr("data-room"), await b.attr("data-room")];
  check(roomA !== "" && roomA === roomB, `A and B pressed Play now at 3+2 and share room ${roomA}`);
  const clocks = (await a.attr("data-clocks")).split(",").map(Number);
  check(clocks.length === 2 && clocks.every((ms) => ms > 170000 && ms <= 180000),
    `the paired game runs 3+2 clocks (${clocks})`);
  check((await a.attr("data-opponent")) === "online", "A plays B online");
  await a.shot("paired.png");

  // C waits alone: after a wave, the computer is offered; C takes it.
  const c = await open("C", "(seen_intro: true, child: Some(false), name: \"Chi\")");
  await toOnline(c, base);
  await press(c, "Open(PlayNow)");
  await press(c, "Pool(1)");
  const alone = await until(c, "data-pool", (v) => v.startsWith("alone-"), 30);
  await c.shot("alone.png");
  const level = alone.slice("alone-".length);
  check(Number(level) >= 1 && Number(level) <= 10, `C, alone, is offered the computer (level ${level})`);
  await press(c, "PlayComputer");
  await c.until('[data-screen="playing"]', 30);
  await until(c, "data-opponent", (v) => v === `computer-${level}`);
  await until(c, "data-pool", (v) => v === "");
  check(true, `C plays the computer at level ${level} on its own board, out of the pool`);
  await c.shot("computer.png");
} catch (e) {
  console.log(`FAIL ${e.stack ?? e}`);
  failed = true;
} finally {
  await browser.close();
  await stop();
}
for (const e of errors) console.log(`page error: ${e}`);
if (failed || errors.length > 0) process.exit(1);
console.log("pool: all checks passed");
