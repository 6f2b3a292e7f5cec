// Quick pairing in real browsers against `oaq-server --web DIST` with short waves: pages A and
// B press Play now at 3+2 and are paired into one room, whose game both boards show; page C,
// alone in the pool, is offered the computer after a wave, takes it, and plays an unrated game
// against it on its own board. Then a bot: made over HTTP and played by `oaq-bot` (beside the
// server's binary) with the built-in engine; page D, in Vietnamese, asks for a bot of about its
// rating at 3+2 and plays it to the end, the bot's name shown with its mark, and the game rated.
// Buttons are pressed where the canvas's `data-controls` says.
// Prints what it checks; screenshots in the output.
//
// OAQ_NPM=DIR_WITH_NODE_MODULES node tests/web/pool.mjs DIST_DIR OUT_DIR OAQ_SERVER_BINARY

import { spawn } from "node:child_process";
import { dirname, join } from "node:path";

import {
  CHROMIUM, openPage, PHONE, playFirstLegal, press, toOnline, toOnlineByTouch, until, setUp,
  startServer,
} from "./pages.mjs";

const { dist, out, serverBinary, chromium } = await setUp("pool");

const { base, stop } = await startServer(serverBinary, dist, ["--pool-wave-secs", "0.5"]);

const browser = await chromium.launch(CHROMIUM);
let failed = false;
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failed = true;
};
const errors = [];
let bot = null;
const desktop = { viewport: { width: 1280, height: 720 } };
const open = (name, settings) => openPage(browser, name, desktop, { out, errors, settings });

try {
  // A on a phone, by touch.
  const a = await openPage(browser, "A", PHONE, {
    out, errors, settings: "(seen_intro: true, child: Some(false), name: \"An\")",
  });
  const b = await open("B", "(seen_intro: true, child: Some(false), language: vi, name: \"Bình\")");
  await toOnlineByTouch(a, base);
  await toOnline(b, base);
  await a.shot("home-phone.png");
  // 3+2 is the second of the home's tiles: a tap waits in its pool, on the page that says so.
  await press(a, "Pool(1)");
  await until(a, "data-page", (v) => v === "playnow");
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

  // A bot of about D's rating.
  const made = await (await fetch(`${base}api/bot/new`, {
    method: "POST",
    body: JSON.stringify({ name: "Robo", login: "robo-bot", password: "a bot's password" }),
  })).json();
  check(made.player?.bot === true && made.token?.startsWith("oaqbot_"), "a bot is made over HTTP");
  bot = spawn(join(dirname(serverBinary), "oaq-bot"), [
    "play", "--server", base.replace(/\/$/, ""), "--token", made.token, "--engine", "builtin:easy",
    "--stop-after", "1",
  ], { stdio: ["ignore", "pipe", "inherit"] });
  let botSaid = "";
  bot.stdout.on("data", (chunk) => { botSaid += chunk; });
  const botDone = new Promise((done) => bot.once("exit", done));
  for (let i = 0; ; i++) {
    const bots = await (await fetch(`${base}api/bots`)).json();
    if (bots.online.some((b) => b.name === "Robo")) break;
    if (i > 100) throw new Error("the bot never came online");
    await new Promise((r) => setTimeout(r, 200));
  }
  const d = await open("D", "(seen_intro: true, child: Some(false), language: vi, name: \"Dũng\")");
  await toOnline(d, base);
  await press(d, "Open(PlayNow)");
  await until(d, "data-page", (v) => v === "playnow");
  await d.shot("play-now-bot.png");
  await press(d, "PlayBot(1)");
  try {
    await d.until('[data-screen="playing"][data-room-phase="playing"]', 30);
  } catch (e) {
    await d.shot("bot-not-begun.png");
    const problem = await d.attr("data-problem");
    throw new Error(`no game with the bot (problem: ${problem}; the bot: ${botSaid.trim()}): ${e}`);
  }
  const players = await d.attr("data-players");
  check(players.split(",").includes("BOT Robo"), `D plays the bot, shown with its mark (${players})`);
  await d.shot("bot-game.png");
  let moves = 0;
  for (let i = 0; i < 600; i++) {
    if ((await d.attr("data-room-phase")) === "ended") break;
    if ((await d.attr("data-human")) === "1" && (await d.attr("data-phase")) === "waiting") {
      const ply = await d.attr("data-ply");
      await playFirstLegal(d);
      await until(d, "data-ply", (v) => v !== ply, 20);
      moves++;
    } else {
      await d.waitForTimeout(200);
    }
  }
  const result = await until(d, "data-result", (v) => v !== "", 30);
  check(moves > 0, `D played the bot to the end (${moves} moves of D's, ${result})`);
  await d.shot("bot-game-over.png");
  await botDone;
  check(/game [A-Z0-9]{6} over: \{/.test(botSaid), `oaq-bot played it to the end: ${botSaid.trim()}`);
  const board = (await (await fetch(`${base}api/bots`)).json()).leaderboard;
  check(board.length === 1 && board[0].games === 1, "the game was rated: the bot is on the bots' leaderboard");
} catch (e) {
  console.log(`FAIL ${e.stack ?? e}`);
  failed = true;
} finally {
  bot?.kill();
  await browser.close();
  await stop();
}
for (const e of errors) console.log(`page error: ${e}`);
if (failed || errors.length > 0) process.exit(1);
console.log("pool: all checks passed");
