// Learning from a lost game, on a phone, in a real browser (Debian's Chromium, driven by
// playwright-core):
//  1. a phone-sized page (390 × 844) plays a whole game against Medium (level 4) from the
//     keyboard (the first pit the arrows reach, sown with X) and loses it;
//  2. the end panel's "Retry my mistakes" turns the player's mistakes into puzzles (the
//     canvas's `data-puzzle` says `own N/COUNT step-S …`), under "My mistakes"; the player looks at each answer (`data-answer`, lit on the board) and plays it, step
//     after step, until every one is solved;
//  3. the same page opened again that day offers no practice (each was answered today), and
//     opened a day later (the page's clock a day on) offers "Practice (COUNT due)" on the
//     title, which opens those puzzles again.
//
// OAQ_NPM=DIR_WITH_NODE_MODULES node tests/web/practice.mjs DIST_DIR OUT_DIR

import {
  CHROMIUM, focused as focusedOn, openPage, PHONE, playOutByKeys, serveFolder, setUp,
  tabTo as tabToOn, until,
} from "./pages.mjs";

// The third argument, a server, is not used: the page plays the computer.
process.argv[4] ??= "none";
const { dist, out, chromium } = await setUp("practice");
const { url, close: closeServer } = await serveFolder(dist);
const browser = await chromium.launch(CHROMIUM);

let failed = false;
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failed = true;
};

const DAY_MS = 24 * 3600 * 1000;

/// The ring index of citizen pit `number` (1–5 on side 0's row, 6–10 on side 1's).
const ringOf = (number) => 6 * Math.floor((number - 1) / 5) + ((number - 1) % 5);

try {
  const errors = [];
  const page = await openPage(
    browser,
    "practice",
    { ...PHONE, reducedMotion: "reduce" },
    { out, errors, settings: "(level: 4, language: en, seen_intro: true, speed: off)" },
  );
  const [on, attr] = [page.until, page.attr];
  // The words the page's mirror of the accessibility tree holds, and its focus.
  const mirrored = () => page.evaluate(() => document.getElementById("oaq-a11y")?.innerText ?? "");
  const focused = () => focusedOn(page);
  const tabTo = (wanted) => tabToOn(page, wanted);

  // 1: a whole game against Medium, from the keyboard.
  await page.goto(url);
  await on('[data-screen="title"]', 240);
  await page.waitForTimeout(1500);
  check(await tabTo((t) => t === "Play"), "Tab reaches Play");
  await page.keyboard.press("Enter");
  await on('[data-screen="playing"]', 30);
  check((await attr("data-opponent")) === "computer-4", "the game is against Medium (level 4)");
  await playOutByKeys(page);
  await page.waitForTimeout(800);
  const ending = await mirrored();
  check(/wins/.test(ending) && !/You win/.test(ending), `the game is lost to Medium`);
  await page.shot("lost.png");

  // 2: its mistakes, retried.
  check(await tabTo((t) => t === "Retry my mistakes"), "Tab reaches Retry my mistakes");
  await page.keyboard.press("Enter");
  const first = await until(page, "data-puzzle", (v) => v.startsWith("own 1/"), 240);
  const count = Number(first.split(" ")[1].split("/")[1]);
  check(count > 0, `the lost game gave ${count} puzzles to retry`);
  for (let n = 1; n <= count; n++) {
    await until(page, "data-puzzle", (v) => v.startsWith(`own ${n}/`) && !v.endsWith("solved"), 30);
    await on('[data-phase="waiting"][data-human="1"]', 60);
    const caption = await mirrored();
    check(/My mistakes/.test(caption), `puzzle ${n} of ${count} is one of "My mistakes"`);
    if (n === 1) await page.shot("retry.png");
    for (let step = 0; step < 8 && !(await attr("data-puzzle")).endsWith("solved"); step++) {
      if ((await attr("data-phase")) === "over") break;
      await on('[data-phase="waiting"][data-human="1"]', 60);
      if ((await attr("data-answer")) === "") {
        check(await tabTo((t) => t === "Show answer"), `puzzle ${n}: Tab reaches Show answer`);
        await page.keyboard.press("Enter");
      }
      const answer = await until(page, "data-answer", (v) => v !== "", 10).catch(async (e) => {
        const state = `${await attr("data-puzzle")}, ply ${await attr("data-ply")}, ${await attr("data-phase")}`;
        throw new Error(`${e.message} (${state}; focus "${await focused()}")`);
      });
      console.log(`  puzzle ${n}, step ${step}: the answer is ${answer} (${await attr("data-puzzle")})`);
      const ring = String(ringOf(Number(answer.slice(0, -1))));
      const stepOf = async () => Number((await attr("data-puzzle")).match(/step-(\d+)/)[1]);
      const at = await stepOf();
      const ply = Number(await attr("data-ply"));
      // The answer's pit, picked with the arrows, then sown toward one side of the screen or,
      // when that went the other way (a wrong move, taken back), toward the other.
      for (const key of ["x", "z"]) {
        for (let i = 0; i < 6 && (await attr("data-selected")) !== ring; i++) {
          await page.keyboard.press("ArrowRight");
          await page.waitForTimeout(100);
        }
        const picked = await attr("data-selected");
        await page.keyboard.press(key);
        // Played and kept, or wrong (shown and taken back at once: speed is off).
        const played = async () =>
          Number(await attr("data-ply")) > ply ||
          (key === "x" && (await attr("data-puzzle")).endsWith("wrong"));
        for (let i = 0; i < 100 && !(await played()); i++) await page.waitForTimeout(100);
        check(await played(), `puzzle ${n}: ${key} on pit ${answer.slice(0, -1)} (ring ${picked}) is played`);
        if (Number(await attr("data-ply")) > ply) break;
        await on(`[data-ply="${ply}"][data-phase="waiting"][data-human="1"]`, 30);
        if ((await attr("data-answer")) === "") {
          await tabTo((t) => t === "Show answer");
          await page.keyboard.press("Enter");
          await until(page, "data-answer", (v) => v !== "", 10);
        }
      }
      // Solved, or the computer's reply played and the next step the player's.
      const settled = async () =>
        (await attr("data-puzzle")).endsWith("solved") ||
        ((await stepOf()) > at && (await attr("data-phase")) === "waiting" &&
          (await attr("data-human")) === "1");
      for (let i = 0; i < 150 && !(await settled()); i++) await page.waitForTimeout(100);
    }
    const state = `${await attr("data-puzzle")}, ply ${await attr("data-ply")}, ${await attr("data-phase")}`;
    check(state.includes(" solved,"), `puzzle ${n} of ${count} solved (${state})`);
    if (n < count) {
      // The "›" button, named for screen readers by what it steps.
      const next = await tabTo((t) => /next$/.test(t));
      check(next, `puzzle ${n}: Tab reaches the next puzzle (${await focused()})`);
      await page.keyboard.press("Enter");
    }
  }
  await page.shot("retried.png");

  // 3: none due again today; all of them tomorrow.
  const practiceButton = async () => {
    await page.reload();
    await on('[data-screen="title"]', 240);
    await page.waitForTimeout(1500);
    return (await mirrored()).match(/Practice \((\d+) due\)/)?.[1] ?? null;
  };
  const today = await practiceButton();
  check(today === null, `the same day, nothing to practise (${today})`);
  await page.context().addInitScript((shift) => {
    const now = Date.now;
    Date.now = () => now() + shift;
  }, DAY_MS + 3600 * 1000);
  const tomorrow = await practiceButton();
  check(Number(tomorrow) === count, `a day later, "Practice (${tomorrow} due)" of ${count}`);
  await page.shot("tomorrow.png");
  check(await tabTo((t) => t.startsWith("Practice (")), "Tab reaches Practice");
  await page.keyboard.press("Enter");
  const again = await until(page, "data-puzzle", (v) => v.startsWith("own 1/"), 30);
  check(again.startsWith(`own 1/${count} `), `Practice opens the ${count} again (${again})`);
  await page.shot("practice-again.png");
  check(errors.length === 0, `no errors on the page ${errors.join("; ")}`);
} finally {
  await browser.close();
  closeServer();
}
process.exit(failed ? 1 : 0);
