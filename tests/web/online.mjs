// Online play in real browsers: `oaq-server --web DIST` on 127.0.0.1 serves the web build and
// referees. Page A opens "Play online" and creates a room; page B opens the room's link
// (`?room=CODE`) and both play by clicking their own (nearest) row; B reloads and is back in
// its seat with the clocks running; A resigns. Then a phone-sized page types A's friend code
// into its friends page's field (the page's input, the phone's keyboard), and joins a new room
// of A's, half a minute each, by typing its code; it opens, A answers, and the phone's time runs
// out on both pages. Prints what it checks and saves screenshots in the output folder.
//
// OAQ_NPM=DIR_WITH_NODE_MODULES node tests/web/online.mjs DIST_DIR OUT_DIR OAQ_SERVER_BINARY

import {
  CHROMIUM, openPage, PHONE, playFirstLegal, press, toOnline, toOnlineByTouch, until, where,
  setUp, startServer,
} from "./pages.mjs";

const { dist, out, serverBinary, chromium } = await setUp("online");

const { base, stop } = await startServer(serverBinary, dist);

const browser = await chromium.launch(CHROMIUM);
let failed = false;
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failed = true;
};
const errors = [];
const open = (name, options = { viewport: { width: 1280, height: 720 } }) =>
  openPage(browser, name, options, { out, errors });

try {
  const a = await open("A");
  // The settings' writes, counted: the game keeps them when they change, not at every frame.
  await a.addInitScript(() => {
    window.settingsWrites_ = 0;
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key, value) {
      if (key === "o-an-quan/settings.ron") window.settingsWrites_++;
      return setItem.call(this, key, value);
    };
  });
  await toOnline(a, base);
  await a.shot("online-a.png");
  // The pointer moving over the home draws frames (its buttons light up); the screen's state,
  // fields' text among it, is marked changed only when it changes, so the settings stay unsaved.
  const writes = () => a.evaluate(() => window.settingsWrites_);
  const written = await writes();
  for (let i = 0; i < 20; i++) await a.mouse.move(400 + 20 * i, 300 + 10 * i, { steps: 3 });
  await a.waitForTimeout(500);
  const more = (await writes()) - written;
  check(more === 0, `no settings written while the pointer moves (${more})`);
  await press(a, "Invite"); // "Invite by link": a private room, its link and QR code.
  await a.until('[data-room-phase="waiting"]', 30);
  const code = await a.attr("data-room");
  check(/^[A-Z2-9]{6}$/.test(code ?? ""), `A's room has a code (${code})`);
  await a.waitForTimeout(500);
  await a.shot("waiting-a.png");

  const b = await open("B");
  await b.goto(`${base}?room=${code}`);
  await b.until('[data-screen="playing"][data-room-phase="playing"]', 240);
  await a.until('[data-screen="playing"][data-room-phase="playing"]', 30);
  check(true, "the link puts B straight into A's room, and the game begins on both pages");
  const youB = await b.attr("data-you");
  // Whoever moves first (the room's choice is random), by clicking their own row.
  const first = (await a.attr("data-human")) === "1" ? a : b;
  const second = first === a ? b : a;
  await playFirstLegal(first);
  await a.until('[data-ply="1"][data-phase="waiting"]', 30);
  await b.until('[data-ply="1"][data-phase="waiting"]', 30);
  check(true, "a click plays a move, and it arrives on the other page");
  await playFirstLegal(second);
  await a.until('[data-ply="2"][data-phase="waiting"]', 30);
  await b.until('[data-ply="2"][data-phase="waiting"]', 30);
  check(true, "the other player answers from their own row");
  await a.shot("game-a.png");
  await b.shot("game-b.png");

  // B reloads: the same player, back in the same seat, the game and the clocks as they were.
  await b.reload();
  await b.until('[data-screen="playing"][data-room-phase="playing"][data-ply="2"]', 240);
  check((await b.attr("data-you")) === youB, `B is back in seat ${youB} after a reload`);
  const clocks = async () => (await a.attr("data-clocks")).split(",").map(Number);
  const before = await clocks();
  await a.waitForTimeout(2500);
  const after = await clocks();
  const running = before.map((ms, seat) => ms - after[seat]);
  check(
    running.filter((d) => d > 1000).length === 1 && running.every((d) => d >= 0),
    `one clock runs, the other stands (${before} → ${after})`,
  );
  await b.shot("reloaded-b.png");

  // B's page goes away: A is told how long until the win can be claimed; B comes back by the
  // room's link to the same seat.
  await b.goto("about:blank");
  await a.waitForTimeout(3000);
  await a.shot("away-a.png");
  await b.goto(`${base}?room=${code}`);
  await b.until('[data-screen="playing"][data-room-phase="playing"][data-ply="2"]', 240);
  check((await b.attr("data-you")) === youB, "B is back in the same seat by the link");

  // A resigns (asked first), and both pages show the end.
  await a.mouse.click(933, 27); // Resign (its flag and word), before Offer a draw and Leave
  await a.waitForTimeout(400);
  await a.shot("resign-a.png");
  await a.mouse.click(897, 27); // Yes, after "Resign this game?"
  await a.until('[data-room-phase="ended"][data-result="resign"]', 30);
  await b.until('[data-room-phase="ended"][data-result="resign"]', 30);
  check(true, "a resignation ends the game on both pages");
  await b.waitForTimeout(500);
  await b.shot("ended-b.png");
  await a.shot("ended-a.png");
  await press(a, "Leave"); // Leave (the bar's or the end panel's: either leaves).
  await a.until('[data-screen="online"][data-room-phase="none"]', 30);
  // A's friend code, for the phone to type.
  await press(a, "Open(Friends)");
  const friendCode = await until(a, "data-friend-code", (c) => /^[A-Z2-9]{8}$/.test(c));
  await press(a, "Back");
  await a.until('[data-page="home"]', 20);
  await a.waitForTimeout(500);

  // A opens a room of its own choices (the home's "Choose the rules…" sheet) with half a minute
  // each and no increment, the other player to move first: custom time (two steps right), half
  // a minute (six steps down), no increment (five steps down), "They move first" (two presses).
  // A phone joins it by typing its code.
  await press(a, "Sheet");
  const presses = ["Clock(1)", "Clock(1)", ...Array(6).fill("Minutes(-1)"),
    ...Array(5).fill("Increment(-1)"), "First", "First"];
  for (const action of presses) {
    await press(a, action);
    await a.waitForTimeout(200);
  }
  await a.waitForTimeout(300);
  await a.shot("custom-clock-a.png");
  await press(a, "Create");
  await a.until('[data-room-phase="waiting"]', 30);
  const second_code = await a.attr("data-room");
  const phone = await open("phone", PHONE);
  await toOnlineByTouch(phone, base);
  // Every field of the pages takes the phone's own keyboard: a tap on the friends page's code
  // field focuses the page's input laid over it; A's code typed as read out (small letters, a
  // dash) and Enter ask A.
  await press(phone, "Open(Friends)");
  await phone.until('[data-page="friends"]', 20);
  await phone.waitForTimeout(500); // laid out, with its code's QR
  await phone.touchscreen.tap(...(await where(phone, "Edit(FriendCode)")));
  const focused = await phone.evaluate(() => document.activeElement?.dataset?.field ?? "");
  check(focused === "FriendCode", `a tap on a page's field gives its input the focus (${focused})`);
  await phone.keyboard.type(`${friendCode.slice(0, 4)}-${friendCode.slice(4)}`.toLowerCase());
  await phone.keyboard.press("Enter");
  await until(a, "data-requests", (n) => n === "1");
  check(true, "a friend code typed on the phone's keyboard reaches A as a request");
  await phone.shot("phone-friend-code.png");
  await press(phone, "Back");
  await phone.until('[data-page="home"]', 20);
  await phone.waitForTimeout(500);
  await phone.shot("phone-home.png");
  // My games, from the home, and back.
  await press(phone, "Open(Games)");
  await phone.until('[data-page="games"]', 20);
  await phone.waitForTimeout(300);
  await phone.shot("phone-games.png");
  await press(phone, "Back");
  await phone.until('[data-page="home"]', 20);
  await phone.waitForTimeout(500);
  // The code field, wherever the phone's narrow panel puts it.
  await phone.touchscreen.tap(...(await where(phone, "Edit(RoomCode)")));
  await phone.keyboard.type(second_code.toLowerCase());
  await phone.waitForTimeout(300);
  await phone.shot("phone-code.png");
  await phone.keyboard.press("Enter"); // a full code joins
  await phone.until('[data-screen="playing"][data-room-phase="playing"]', 30);
  await a.until('[data-screen="playing"][data-room-phase="playing"]', 30);
  check(true, `a phone-sized page joins room ${second_code} by its code`);
  await phone.waitForTimeout(500);
  await phone.shot("phone-game.png");

  // The phone opens by touch on its upright board (its row on the right, running up; the world
  // is 720 × 1280 units shown at 390 / 720 of a point each about the centre), A answers, and
  // the phone's half minute runs out: the game ends by time on both pages.
  const at = (x, y) => [195 + x * (390 / 720), 422 - y * (390 / 720)];
  await phone.touchscreen.tap(...at(66, 10));
  await phone.until(':not([data-selected="none"])', 20);
  await phone.touchscreen.tap(...at(166, 67));
  await a.until('[data-ply="1"][data-phase="waiting"]', 30);
  await playFirstLegal(a);
  await phone.until('[data-ply="2"][data-phase="waiting"]', 30);
  const ticking = (await phone.attr("data-clocks")).split(",").map(Number);
  check(ticking.every((ms) => ms <= 30000), `both clocks under half a minute (${ticking})`);
  await phone.waitForFunction(
    () => Math.min(...document.querySelector("#game").dataset.clocks.split(",").map(Number)) < 9000,
    null, { timeout: 40000 });
  await phone.shot("phone-low-time.png");
  await phone.until('[data-room-phase="ended"][data-result="time"]', 30);
  await a.until('[data-room-phase="ended"][data-result="time"]', 30);
  check(true, "the phone's clock runs out and the game ends by time on both pages");
  await phone.waitForTimeout(500);
  await phone.shot("phone-time.png");
  await a.shot("time-a.png");
  check(errors.length === 0, `no errors on the pages ${errors.join("; ")}`);
} catch (e) {
  console.log(`FAIL ${e.message}`);
  failed = true;
} finally {
  await browser.close();
  await stop();
}
process.exit(failed ? 1 : 0);
