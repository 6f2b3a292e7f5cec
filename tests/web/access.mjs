// The game as a blind player meets it in the browser, from the keyboard alone: the page's
// mirror of the accessibility tree, as Chromium's own accessibility tree exposes it to screen
// readers (the mirror is the canvas's fallback content, which Playwright's DOM-based ARIA
// snapshot counts as hidden, so the snapshot is Chromium's, read over the DevTools protocol),
// at the title, in the settings with the browser asking for reduced motion, and on the board;
// a whole game against the computer played with the arrow keys and X only, each move
// announced in the live region, and the end read out. Prints what it checks; the snapshots
// (`*.aria.yml`) and screenshots in the output.
//
// OAQ_NPM=DIR_WITH_NODE_MODULES node tests/web/access.mjs DIST_DIR OUT_DIR OAQ_SERVER_BINARY

import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  CHROMIUM, focused as focusedOn, openPage, playFirstLegal, press, setUp, startServer,
  tabTo as tabToOn, toOnline,
} from "./pages.mjs";

const { dist, out, serverBinary, chromium } = await setUp("access");
const { base, stop } = await startServer(serverBinary, dist);
const browser = await chromium.launch(CHROMIUM);
let failed = false;
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failed = true;
};
const errors = [];

/// Keep every announcement of `page`'s live region in `window.oaqSaid`, as it changes.
const listen = (page) =>
  page.evaluate(() => {
    window.oaqSaid = [];
    const watch = () => {
      const region = document.querySelector('#oaq-a11y [role="status"]');
      if (!region) return setTimeout(watch, 100);
      new MutationObserver(() => window.oaqSaid.push(region.textContent.trim()))
        .observe(region, { childList: true, characterData: true, subtree: true });
    };
    watch();
  });

try {
  // The browser asks for reduced motion; the computer plays at level 1.
  const page = await openPage(
    browser,
    "A",
    { viewport: { width: 1280, height: 720 }, reducedMotion: "reduce" },
    { out, errors, settings: "(seen_intro: true, level: 1)" },
  );
  await page.goto(base);
  await page.until('[data-screen="title"]', 240);
  const mirror = page.locator("#oaq-a11y");
  await mirror.waitFor({ state: "attached", timeout: 60000 });
  await page.waitForTimeout(1000);
  // Chromium's accessibility tree under the canvas, as `- role "name"` lines.
  const cdp = await page.context().newCDPSession(page);
  const snapshot = async (name) => {
    const { nodes } = await cdp.send("Accessibility.getFullAXTree");
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const lines = [];
    const visit = (node, depth) => {
      const shown = !node.ignored && node.role?.value !== "StaticText" && node.role?.value !== "InlineTextBox";
      if (shown) lines.push(`${"  ".repeat(depth)}- ${node.role?.value} "${node.name?.value ?? ""}"`);
      for (const id of node.childIds ?? []) {
        const child = byId.get(id);
        if (child) visit(child, shown ? depth + 1 : depth);
      }
    };
    const canvas = nodes.find((n) => n.role?.value === "Canvas");
    if (canvas) visit(canvas, 0);
    const text = lines.join("\n");
    await writeFile(join(out, `${name}.aria.yml`), text + "\n");
    return text;
  };
  await listen(page);
  // The focus is the page's focus: which mirrored element has it, and its words.
  const focused = () => focusedOn(page);
  const tabTo = (name, tries) => tabToOn(page, name, tries);
  const announced = () => page.locator('#oaq-a11y [role="status"]').textContent();

  const title = await snapshot("title");
  check(/button "Play"/.test(title) && /button "Play online"/.test(title),
    "the title's buttons are in the page's tree");
  check(/dialog/.test(title), "the title is a dialog");

  // Settings → Accessibility, from the keyboard.
  check(await tabTo("Settings"), "Tab reaches Settings");
  await page.keyboard.press("Enter");
  await page.until('[data-overlay="menu"]', 20);
  check(await tabTo("Accessibility"), "Tab reaches Accessibility inside the menu");
  await page.keyboard.press("Enter");
  await page.waitForTimeout(500);
  const access = await snapshot("access");
  check(/button "Motion: As the system asks \(Reduced\)"/.test(access),
    "the browser's prefers-reduced-motion is followed");
  check(/button "Text size: next"/.test(access), "the text size's buttons are named");
  await page.shot("access.png");
  await page.keyboard.press("Escape");
  await page.keyboard.press("Escape");
  await page.until('[data-overlay="none"]', 20);

  // Play, from the keyboard.
  check(await tabTo("Play"), "Tab reaches Play");
  await page.keyboard.press("Enter");
  await page.until('[data-screen="playing"]', 30);
  await page.waitForTimeout(500);
  const board = await snapshot("board");
  check(/grid "The board"/.test(board), "the board is a grid");
  check(/gridcell "your pit 3, 5 stones"/.test(board), "its cells are named pits");
  let moves = 0;
  let first = "";
  for (let i = 0; i < 400; i++) {
    const phase = await page.attr("data-phase");
    if (phase === "over") break;
    if (phase !== "waiting" || (await page.attr("data-human")) !== "1") {
      await page.waitForTimeout(150);
      continue;
    }
    await page.keyboard.press("ArrowRight");
    await page.until(':not([data-selected="none"])', 10);
    await page.keyboard.press("x");
    moves += 1;
    await page.waitForTimeout(200);
    if (moves === 1) {
      await page.shot("board-after-move.png");
      await snapshot("board-after-move");
    }
  }
  const said = await page.evaluate(() => window.oaqSaid);
  first = said.find((s) => s.startsWith("You sowed")) ?? "";
  check(/^You sowed your pit \d/.test(first), `the move was announced: "${first}"`);
  check(said.some((s) => s.includes("The computer sowed")), "the computer's moves too");
  await page.until('[data-phase="over"]', 60);
  await page.waitForTimeout(500);
  const end = (await announced()).trim();
  check(/The game is over/.test(end), `the end was announced: "${end.slice(0, 120)}…"`);
  const over = await snapshot("over");
  check(/button "Play again"/.test(over), "the end panel's buttons are in the tree");
  check(moves >= 3, `a whole game played from the keyboard (${moves} moves)`);
  await page.keyboard.press("c");
  await page.waitForTimeout(300);
  check(/points/.test(await announced()), "C reads the scores");
  await page.shot("over.png");

  // Online: A opens a room (by mouse); B, who plays by keyboard and ear, follows its link.
  const desktop = { viewport: { width: 1280, height: 720 } };
  const a = await openPage(browser, "online-A", desktop, { out, errors });
  await toOnline(a, base);
  await press(a, "Invite"); // A private room, whose link is given.
  await a.until('[data-room-phase="waiting"]', 30);
  const code = await a.attr("data-room");
  const b = await openPage(browser, "online-B", desktop, { out, errors });
  await b.goto(`${base}?room=${code}`);
  await b.until('[data-screen="playing"][data-room-phase="playing"]', 240);
  await a.until('[data-screen="playing"][data-room-phase="playing"]', 30);
  await b.waitForTimeout(500);
  await listen(b);
  for (let ply = 0; ply < 4; ply++) {
    if ((await b.attr("data-human")) === "1") {
      await b.keyboard.press("ArrowRight");
      await b.until(':not([data-selected="none"])', 10);
      await b.keyboard.press("x");
    } else {
      await playFirstLegal(a);
    }
    await a.until(`[data-ply="${ply + 1}"][data-phase="waiting"]`, 30);
    await b.until(`[data-ply="${ply + 1}"][data-phase="waiting"]`, 30);
  }
  const heard = await b.evaluate(() => window.oaqSaid);
  await writeFile(join(out, "online-heard.txt"), heard.join("\n") + "\n");
  check(heard.some((s) => s.includes("Your opponent sowed your opponent's pit")),
    "online, B hears A's moves");
  check(heard.some((s) => s.startsWith("You sowed your pit")), "and their own, played by keyboard");
  await b.shot("online-b.png");
  check(errors.length === 0, `no page errors ${errors.join("; ")}`);
} catch (e) {
  console.log(`FAIL ${e.stack ?? e}`);
  failed = true;
} finally {
  await browser.close();
  await stop();
}
process.exit(failed ? 1 : 0);
