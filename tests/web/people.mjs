// Players who know each other, in real browsers against `oaq-server --web DIST`: page A (in
// English) shows its friend code; page B (in Vietnamese) opens the code's link, as a phone that
// scans its QR does, and asks to be friends; A accepts; B challenges A from its friends page; A
// accepts and both boards show the room; each says a chat phrase and the other sees it in its
// own language; B blocks A, and A's next challenge is refused; A takes a link code, and page C
// opens its link, is asked first (naming A), says yes and is the same player with the same
// rating, then goes back to the player it was. B's friend link asks first too. Buttons are pressed where the
// canvas's `data-controls` says they are. Prints what it checks; screenshots in the output.
//
// OAQ_NPM=DIR_WITH_NODE_MODULES node tests/web/people.mjs DIST_DIR OUT_DIR OAQ_SERVER_BINARY

import { CHROMIUM, openPage, press, toOnline, until, setUp, startServer } from "./pages.mjs";

const { dist, out, serverBinary, chromium } = await setUp("people");

const { base, stop } = await startServer(serverBinary, dist);

const browser = await chromium.launch(CHROMIUM);
let failed = false;
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failed = true;
};
const errors = [];
const desktop = { viewport: { width: 1280, height: 720 } };
const open = (name, settings) => openPage(browser, name, desktop, { out, errors, settings });
const vietnamese = "(seen_intro: true, child: Some(false), language: vi, name: \"Bình\")";

try {
  // A's friend code, on its friends page.
  const a = await open("A", "(seen_intro: true, child: Some(false), name: \"An\")");
  await toOnline(a, base);
  const aId = await a.attr("data-player");
  await press(a, "Open(Friends)");
  const code = await until(a, "data-friend-code", (c) => /^[A-Z2-9]{8}$/.test(c));
  check(true, `A's friends page shows its friend code (${code})`);
  await a.shot("friends-a.png");

  // B opens the code's link (what scanning the QR does) and asks; A accepts.
  const b = await open("B", vietnamese);
  await b.goto(`${base}?friend=${code}`);
  await b.until('[data-link="open"]', 240);
  const bId = await b.attr("data-player");
  // The link's code is not used before B says yes, and the question names whom it asks.
  await until(b, "data-offer", (o) => o === "friend:An");
  check((await until(a, "data-requests", () => true)) === "0", "nothing is asked of A before B says yes");
  await b.shot("friend-offer-b-vi.png");
  await press(b, "Follow(true)");
  await until(a, "data-requests", (n) => n === "1");
  check(true, "A hears B's friend request at once");
  await a.shot("request-a.png");
  await press(a, `AnswerFriend("${bId}", true)`);
  await until(a, "data-friends", (f) => f.split(",").includes(bId));
  check(true, "A and B are friends");

  // B challenges A from its friends page (where saying yes took it); A accepts; both boards
  // show the room.
  check((await b.attr("data-page")) === "friends", "B's yes opened its friends page");
  await until(b, "data-friends", (f) => f.split(",").includes(aId));
  await b.shot("friends-b-vi.png");
  await press(b, `Challenge("${aId}")`);
  await until(a, "data-challenges", (n) => n === "1");
  await a.shot("challenged-a.png");
  await press(a, (c) => c.startsWith("AnswerChallenge(") && c.includes("true)"));
  for (const p of [a, b]) await p.until('[data-room-phase="playing"][data-screen="playing"]', 30);
  check((await a.attr("data-room")) === (await b.attr("data-room")), "the challenge's room is on both boards");

  // Chat: a phrase each way, shown in each reader's language.
  await press(a, "Chat");
  await press(a, "Say(GoodLuck)");
  const heardB = await until(b, "data-chat", (c) => c.length > 0);
  check(heardB.includes("Chúc may mắn!"), `B sees A's phrase in Vietnamese (${heardB})`);
  await b.shot("chat-b-vi.png");
  await press(b, "Chat");
  await press(b, "Say(WellPlayed)");
  const heardA = await until(a, "data-chat", (c) => c.length > 0);
  check(heardA.includes("Well played!"), `A sees B's phrase in English (${heardA})`);
  await a.shot("chat-a.png");

  // Both leave the board; A's friends page is up when B blocks A from A's profile.
  await press(a, "Leave");
  await press(a, "Open(Friends)");
  await until(a, "data-friends", (f) => f.split(",").includes(bId));
  await press(b, "Leave");
  await press(b, "Open(Friends)");
  await press(b, `Profile("${aId}")`);
  await b.until('[data-page="profile"]', 20);
  await press(b, `Block("${aId}")`);
  await until(b, "data-friends", (f) => !f.split(",").includes(aId));
  check(true, "B blocked A: A is no longer B's friend");
  await press(a, `Challenge("${bId}")`);
  const refused = await until(a, "data-problem", (p) => p.length > 0);
  check(refused === "no_such_player", `A's next challenge is refused (${refused})`);
  await a.shot("blocked-a.png");

  // A links a new device: page C opens the link code's link and is A, with A's rating.
  await press(a, "Back");
  await press(a, "Open(Profile)");
  await press(a, "Open(Account)");
  await press(a, "LinkCode");
  const link = await until(a, "data-link-code", (c) => /^[A-Z2-9]{8}$/.test(c));
  await a.shot("link-a.png");
  const c = await open("C");
  await c.goto(`${base}?link=${link}`);
  // C asks first, naming A's player, and stays itself until it says yes.
  await until(c, "data-offer", (o) => o === "link:An", 240);
  const cWas = await c.attr("data-player");
  check(cWas !== "" && cWas !== aId, "page C is still its own player while it is asked");
  await c.shot("link-offer-c.png");
  await press(c, "Follow(true)");
  const cId = await until(c, "data-player", (id) => id === aId, 60);
  check(cId === aId, "page C, by the link code, is the same player as A");
  check((await c.attr("data-previous")) !== "", "page C keeps the player it was, to go back to");
  const [ra, rc] = [await a.attr("data-rating"), await c.attr("data-rating")];
  check(ra === rc && ra !== "", `with the same rating (${ra})`);
  // C takes A's name too: its next connection must not rename A.
  const named = await until(c, "data-player", () => true).then(() =>
    c.evaluate(() => localStorage.getItem("o-an-quan/settings.ron") ?? ""));
  check(named.includes('name: "An"'), "page C keeps A's name for its next connection");
  await c.shot("linked-c.png");
  // And goes back to that player from the account page.
  await press(c, "Open(Profile)");
  await press(c, "Open(Account)");
  await c.shot("go-back-c.png");
  await press(c, "GoBack");
  await until(c, "data-player", (id) => id === cWas, 60);
  check(true, "page C is its own player again");
  check((await c.attr("data-previous")) === "", "and offers no way back to A's player");
} catch (e) {
  check(false, `${e.message ?? e}`);
} finally {
  check(errors.length === 0, `no page errors${errors.length ? `: ${errors.join("; ")}` : ""}`);
  await browser.close();
  await stop();
}
process.exit(failed ? 1 : 0);
