// A short arena between four real browsers against `oaq-server --web DIST` whose tournament
// minute is 3 s (a 10-minute arena lasts 30 s): page A (English, desktop) makes a private arena
// without chat from the game's Tournaments page; B (Vietnamese, desktop), C (desktop) and D (a
// phone, 390 × 844) open its link, as scanning its QR does, and join; A keeps B and C apart
// (siblings) and starts it. Each game is played until the second seat resigns; each page goes
// back to the tournament from the game's end and is paired again by itself. When the arena is
// over every page shows the same podium. Buttons are pressed where the canvas's `data-controls`
// says they are. Prints what it checks; screenshots in the output.
//
// OAQ_NPM=DIR_WITH_NODE_MODULES node tests/web/tournament.mjs DIST_DIR OUT_DIR OAQ_SERVER_BINARY

import { CHROMIUM, openPage, PHONE, press, until, setUp, startServer, toOnline } from "./pages.mjs";

const { dist, out, serverBinary, chromium } = await setUp("tournament");

const { base, stop } = await startServer(serverBinary, dist, ["--tournament-minute-secs", "3"]);

const browser = await chromium.launch(CHROMIUM);
let failed = false;
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failed = true;
};
const errors = [];
const desktop = { viewport: { width: 1280, height: 720 } };
const open = (name, options, settings) => openPage(browser, name, options, { out, errors, settings });
const grownUp = (name, lang = "en") =>
  `(seen_intro: true, child: Some(false), language: ${lang}, name: "${name}")`;
// `ID:STATUS:JOINED:ROUND:PLACE:POINTS`, as the page writes it.
const tournamentOf = async (p) => {
  const [id, status, joined, round, place, points] = ((await p.attr("data-tournament")) ?? "").split(":");
  return { id, status, joined: joined === "1", round: Number(round), place: Number(place), points: Number(points) };
};
const exactly = (action) => (c) => c.startsWith(`${action}@`);

try {
  // A makes a private 10-minute arena (30 s here) that starts when A says.
  const a = await open("A", desktop, grownUp("An"));
  await toOnline(a, base);
  await press(a, "Open(Tournaments)");
  await until(a, "data-page", (v) => v === "tournaments");
  await a.shot("tournaments-a.png");
  await press(a, "Open(NewTournament)");
  await until(a, "data-page", (v) => v === "newtournament");
  for (let i = 0; i < 3; i++) {
    await press(a, "Tour(Length(-1))");
    await a.waitForTimeout(400);
  }
  // No chat in its games.
  await press(a, "Tour(Chat)");
  await a.waitForTimeout(400);
  await a.shot("new-a.png");
  await press(a, "Tour(Create)");
  await until(a, "data-page", (v) => v === "tournament");
  await until(a, "data-tournament", (v) => v.includes(":open:1:"));
  const { id } = await tournamentOf(a);
  check(/^[A-Z2-9]{8}$/.test(id), `A's new arena opened on its page, joined, code ${id}`);
  check((await a.attr("data-controls")).includes("Tour(Begin)"), "A, its organiser, may start it");
  await a.shot("open-a.png");

  // B, C and D open its link (D on a phone) and join.
  const others = [
    await open("B", desktop, grownUp("Bình", "vi")),
    await open("C", desktop, grownUp("Cúc")),
    await open("D", PHONE, grownUp("Dũng", "vi")),
  ];
  for (const p of others) {
    await p.goto(`${base}?tournament=${id}`);
    await p.until('[data-link="open"]', 240);
    await until(p, "data-tournament", (v) => v.startsWith(`${id}:open:0:`), 60);
    await press(p, "Tour(Join)");
    await until(p, "data-tournament", (v) => v.startsWith(`${id}:open:1:`));
  }
  check(true, "B, C and D opened the tournament's link and joined");
  await others[2].shot("joined-d-phone-vi.png");
  await until(a, "data-controls", (c) => c.includes("Tour(Begin)"));
  await a.shot("four-in-a.png");
  // B and C are siblings: A keeps them apart, choosing both in the standings.
  const [bId, cId] = [await others[0].attr("data-player"), await others[1].attr("data-player")];
  await press(a, "Tour(ChooseApart)");
  await press(a, `Tour(Apart("${bId}"))`);
  await a.waitForTimeout(400);
  await press(a, `Tour(Apart("${cId}"))`);
  await until(a, "data-controls", (c) => c.includes("Tour(ChooseApart)") && !c.includes("Tour(Apart("));
  await a.waitForTimeout(400);
  await a.shot("kept-apart-a.png");
  await press(a, "Tour(Begin)");

  // Everyone plays until the arena is over: the second seat resigns each game, then goes back
  // to the tournament's page, where the next pairing finds it.
  const pages = [a, ...others];
  const games = new Set();
  // Who sat in each room, by page.
  const seated = new Map();
  const deadline = Date.now() + 120_000;
  let shotPlaying = false;
  let chatShown = false;
  const seen = new Map();
  const started = Date.now();
  for (;;) {
    const states = await Promise.all(pages.map(tournamentOf));
    if (states.every((s) => s.status === "over")) break;
    if (Date.now() > deadline) throw new Error(`the arena did not end: ${JSON.stringify(states)}`);
    for (const p of pages) {
      const [screen, phase, you, room] = await Promise.all(
        ["data-screen", "data-room-phase", "data-you", "data-room"].map((n) => p.attr(n)));
      const now = `${screen} ${phase} seat ${you} room ${room} ${await p.attr("data-tournament")}`;
      if (seen.get(p) !== now) {
        console.log(`     ${((Date.now() - started) / 1000).toFixed(1)} s: ${pages.indexOf(p)}: ${now}`);
        seen.set(p, now);
      }
      if (screen !== "playing") continue;
      if (phase === "playing" && room) {
        games.add(room);
        seated.set(room, new Set([...(seated.get(room) ?? []), pages.indexOf(p)]));
      }
      if (phase === "playing" && (await p.attr("data-controls")).includes("Chat@")) chatShown = true;
      if (phase === "playing" && you === "1") {
        if (!shotPlaying && p === others[2]) {
          await p.shot("playing-d-phone.png");
          shotPlaying = true;
        }
        await press(p, exactly("Resign"), 2).catch(() => {});
        await press(p, exactly("ResignYes"), 2).catch(() => {});
      } else if (phase === "ended") {
        await press(p, exactly("Tournament"), 2).catch(() => {});
      }
    }
    await a.waitForTimeout(300);
  }
  check(games.size >= 2, `the arena paired its players again and again (${games.size} games)`);
  check(!chatShown, "no game of a tournament without chat showed Chat");
  const siblings = [...seated.values()].filter((s) => s.has(1) && s.has(2)).length;
  check(siblings === 0, `B and C, kept apart, never met (${seated.size} rooms seen)`);

  // The podium, the same on every page.
  const finals = await Promise.all(pages.map(tournamentOf));
  const places = finals.map((s) => s.place).sort();
  check(places[0] === 1 && places.every((n) => n >= 1 && n <= 4), `every player has a place (${places})`);
  const wins = finals.reduce((sum, s) => sum + s.points, 0);
  check(wins % 2 === 0, `the points are the wins' (2 a win, none a loss: ${wins} in all)`);
  // Two rounds at least: the game after a game's end is played on the board it ended on.
  check(wins >= 8, `games after the first were played to their end (${wins / 2} wins or more)`);
  for (const [p, name] of [[a, "podium-a.png"], [others[0], "podium-b-vi.png"], [others[2], "podium-d-phone-vi.png"]]) {
    if ((await p.attr("data-screen")) === "playing") await press(p, exactly("Tournament"));
    await until(p, "data-page", (v) => v === "tournament");
    await p.waitForTimeout(500);
    await p.shot(name);
  }
  check(true, "the podium is on screen on every page (screenshots)");
  // Back: B's list, in Vietnamese, has the tournament among its own.
  await press(others[0], "Back");
  await until(others[0], "data-page", (v) => v === "tournaments");
  await until(others[0], "data-controls", (c) => c.includes(`Tour(Open("${id}"))`));
  await others[0].waitForTimeout(500);
  await others[0].shot("list-b-vi.png");
  check(true, "B's list of tournaments shows it");
} catch (e) {
  console.log(`FAIL ${e.stack ?? e}`);
  failed = true;
} finally {
  await browser.close();
  await stop();
}
for (const e of errors) console.log(`page error: ${e}`);
if (failed || errors.length > 0) process.exit(1);
console.log("tournament: all checks passed");
