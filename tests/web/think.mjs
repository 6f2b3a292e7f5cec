// The thinking worker in a real browser (Debian's Chromium, driven by playwright-core):
//  1. the built worker answers a search held to a depth exactly as the same request answered
//     natively by `oaq-think` (the same best move, value, line and node count), and, once its
//     endgame table has come, an ending's search as natively with the same table (solved);
//  2. Master's move in the worker (2 s), its nodes per move printed beside the native
//     binary's for the same request;
//  3. the game on a phone-sized page against level 9 (1.5 s a move, no opening book: it
//     thinks from the first move) thinks in the worker (the canvas's `data-thought` says
//     where and how far), with the frame rate while it thinks and while its move then
//     animates printed; and once more with Chromium's threads held to one core and the
//     worker's to another, as on a phone with a core to spare (on two cores with software
//     WebGL, the worker otherwise takes the core the drawing needs);
//  4. with the worker's script unavailable, the game still answers, thinking on the page in
//     slices (and says so), with the nodes and frame rate printed;
//  5. a whole game against level 1, then its review: every move judged in the worker, and
//     on the page in slices when the worker's script is unavailable (`data-analysis`).
//
// OAQ_NPM=DIR_WITH_NODE_MODULES node tests/web/think.mjs DIST_DIR OUT_DIR OAQ_THINK_BINARY

import { readFile } from "node:fs/promises";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import {
  CHROMIUM, frameRate, openPage, PHONE, playOutByKeys, recordFrames, serveFolder, setUp,
} from "./pages.mjs";

// The third argument is the native `oaq-think` here, not a server.
const { dist, out, serverBinary: native, chromium } = await setUp("think");

// An empty page of the same origin, for starting the worker without the game.
const { url, close: closeServer } = await serveFolder(dist, {
  "/blank.html": "<!doctype html><title>blank</title>",
});

let failed = false;
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failed = true;
};

// The worker the page names.
const index = await readFile(join(dist, "index.html"), "utf8");
const workerName = index.match(/oaqThinkWorker = "\.\/(think-worker-[0-9a-f]+\.js)"/)?.[1];
check(Boolean(workerName), `the page names its thinking worker (${workerName})`);

// Requests as `ai::remote` reads them: the classic rules, a position three moves in.
const rules = {
  players: 2, mandarin_start: "piece", protection: null, refill: "borrow",
  repetition: false, table_flip: false, move_limit: 200, win_at: null,
};
const position = JSON.stringify({
  ply: 3, to_move: 1, pits: [0, 1, 0, 0, 6, 1, 0, 1, 7, 7, 7, 2], quan: [true, true],
  stores: [{ stones: 12, mandarins: 0, owes: [0, 0] }, { stones: 6, mandarins: 0, owes: [0, 0] }],
});
const recent = [1, 13, 2, 255, 255, 255]; // 1+, 6+, 2-: newest first
const request = (work) => JSON.stringify({ rules, position, recent, work });
const searchRequest = request({
  search: {
    depth: 9, time_ms: null, all_root_moves: false, book: false, quiescence: false,
    reductions: false, outcome_only: false,
  },
});
const masterRequest = request({ level: { level: 10, time_ms: 2000, seed: 5 } });
const answerNatively = (text) => {
  const run = spawnSync(native, [], { input: text, encoding: "utf8", timeout: 60_000 });
  if (run.status !== 0) throw new Error(`oaq-think: ${run.stderr || run.stdout}`);
  return JSON.parse(run.stdout);
};

const browser = await chromium.launch(CHROMIUM);

try {
  // 1 and 2: the worker alone.
  const blank = await browser.newPage();
  await blank.goto(url + "blank.html");
  const ask = (text) => blank.evaluate(async ([name, text]) => {
    const worker = window.worker_ ?? (window.worker_ = new Worker(name));
    return await new Promise((answered, refused) => {
      const id = Math.floor(Math.random() * 1e9);
      const timer = setTimeout(() => refused(new Error("no answer in 60 s")), 60_000);
      worker.onmessage = (e) => {
        if (e.data.id !== id) return;
        clearTimeout(timer);
        e.data.answer ? answered(JSON.parse(e.data.answer)) : refused(new Error(e.data.failed));
      };
      worker.postMessage({ id, request: text });
    });
  }, [workerName, text]);

  const inWorker = await ask(searchRequest);
  const here = answerNatively(searchRequest);
  check(
    inWorker.best === here.best && inWorker.score === here.score &&
      inWorker.nodes === here.nodes && inWorker.pv.join(" ") === here.pv.join(" "),
    `a depth-9 search in the worker is the native one: ${inWorker.best} ${inWorker.score}, ` +
      `${inWorker.nodes} nodes (native ${here.best} ${here.score}, ${here.nodes} nodes); ` +
      `${(inWorker.elapsed_us / 1000).toFixed(0)} ms in the worker, ` +
      `${(here.elapsed_us / 1000).toFixed(0)} ms natively (${native})`,
  );
  const refused = await blank.evaluate(async (name) => {
    const worker = new Worker(name);
    return await new Promise((answered) => {
      worker.onmessage = (e) => answered(e.data.answer);
      worker.postMessage({ id: 1, request: "{\"rules\": 4}" });
    });
  }, workerName);
  check(/"error":"request: /.test(refused), `a bad request gets an error that names it: ${refused}`);

  // The worker's endgame table arrives after its module: asked until it says it has it (its
  // fetch and inflating take well under the 20 s allowed), a search of an ending it knows is
  // then the native one with the same table, solved where a search without it is not.
  const endgameRequest = JSON.stringify({
    rules: { ...rules, refill: "forfeit" },
    position: JSON.stringify({
      ply: 40, to_move: 0, pits: [0, 3, 1, 0, 0, 1, 0, 2, 0, 1, 0, 0], quan: [true, true],
      stores: [{ stones: 14, mandarins: 0, owes: [0, 0] }, { stones: 28, mandarins: 0, owes: [0, 0] }],
    }),
    recent: [255, 255, 255, 255, 255, 255],
    work: { search: { ...JSON.parse(searchRequest).work.search, depth: 2 } },
  });
  let ending = await ask(endgameRequest);
  let tries = 0;
  for (; ending.endgame_table !== 8 && tries < 40; tries++) {
    await blank.waitForTimeout(500);
    ending = await ask(endgameRequest);
  }
  const endingHere = answerNatively(endgameRequest);
  check(
    ending.endgame_table === 8 && ending.solved && ending.best === endingHere.best &&
      ending.score === endingHere.score && ending.nodes === endingHere.nodes,
    `the worker fetched its 8-stone endgame table and looks an ending up in it as natively: ` +
      `${ending.best} ${ending.score}, solved ${ending.solved}, ${ending.nodes} nodes ` +
      `(native ${endingHere.best} ${endingHere.score}, solved ${endingHere.solved}, ` +
      `${endingHere.nodes} nodes); it had the table ${tries ? `after ${tries} more tries` : "at once"}`,
  );

  const master = await ask(masterRequest);
  const masterHere = answerNatively(masterRequest);
  check(Boolean(master.chosen), `Master's move in the worker: ${master.chosen}`);
  console.log(
    `Master, 2 s a move: ${master.nodes} nodes, depth ${master.depth} in the worker; ` +
      `${masterHere.nodes} nodes, depth ${masterHere.depth} natively (${native}): ` +
      `the worker searches ${((100 * master.nodes) / masterHere.nodes).toFixed(0)} % of native's nodes`,
  );

  // Chromium's threads on CPU 0 and its Web Workers' on CPU 1 (`taskset`, thread by thread),
  // again every 100 ms, since the game starts its worker when it first thinks. `stop()` lets
  // every thread run anywhere again.
  const holdCores = () => {
    const pinned = new Map();
    const pin = () => {
      // By process name: the executable is a script that starts `chromium` itself.
      const pids = spawnSync("pgrep", ["chromium"], { encoding: "utf8" })
        .stdout.split("\n").filter(Boolean);
      for (const pid of pids) {
        let threads = [];
        try { threads = readdirSync(`/proc/${pid}/task`); } catch { continue; }
        for (const tid of threads) {
          let name = "";
          try { name = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8"); } catch { continue; }
          const cpu = name.startsWith("DedicatedWorker") ? "1" : "0";
          if (pinned.get(tid) === cpu) continue;
          if (spawnSync("taskset", ["-p", "-c", cpu, tid]).status === 0) pinned.set(tid, cpu);
        }
      }
    };
    pin();
    const timer = setInterval(pin, 100);
    return {
      workers: () => [...pinned.values()].filter((cpu) => cpu === "1").length,
      stop: () => {
        clearInterval(timer);
        for (const tid of pinned.keys()) spawnSync("taskset", ["-p", "-c", "0-1023", tid]);
      },
    };
  };
  const canHoldCores = cpus().length >= 2 && spawnSync("taskset", ["-V"]).status === 0;

  // 3 and 4: the game on a phone against level 9, with the worker (and with it on a core of its
  // own) and without.
  const runs = [
    { withWorker: true, held: false },
    ...(canHoldCores ? [{ withWorker: true, held: true }] : []),
    { withWorker: false, held: false },
  ];
  for (const { withWorker, held } of runs) {
    const context = await browser.newContext(PHONE);
    if (!withWorker) await context.route(/think-worker-/, (route) => route.fulfill({ status: 404 }));
    const phone = await context.newPage();
    const errors = [];
    phone.on("pageerror", (e) => {
      if (!String(e).includes("Using exceptions for control flow")) errors.push(String(e));
    });
    await phone.addInitScript(() => {
      localStorage.setItem("o-an-quan/settings.ron", "(level: 9, language: en, seen_intro: true)");
    });
    const on = (selector, seconds) =>
      phone.waitForSelector(selector, { timeout: seconds * 1000, state: "attached" });
    const scale = 390 / 720;
    const at = (x, y) => [195 + x * scale, 422 - y * scale];
    await phone.goto(url);
    await on('#game[data-screen="title"]', 240);
    await phone.waitForTimeout(1500);
    await phone.touchscreen.tap(195, 388);
    await on('#game[data-screen="playing"]', 30);
    await phone.waitForTimeout(1000);
    const cores = held ? holdCores() : null;
    await phone.touchscreen.tap(...at(66, 10));
    await on('#game:not([data-selected="none"])', 30);
    await phone.touchscreen.tap(...at(166, 67));
    await on('#game[data-ply="1"]', 10);
    // Frames from the end of the player's move's animation (the computer thinks from then on)
    // to its answer, then while the answer's move animates and nothing thinks.
    await on('#game[data-ply="1"][data-phase="waiting"]', 60);
    await recordFrames(phone);
    await on('#game[data-ply="2"]', 120);
    const thinking = await frameRate(phone);
    await recordFrames(phone);
    await on('#game[data-ply="2"][data-phase="waiting"]', 60);
    const animating = await frameRate(phone);
    cores?.stop();
    const thought = await phone.getAttribute("#game", "data-thought");
    const where = withWorker ? "worker" : "page";
    const how = held ? `${where}, Chromium on CPU 0 and its worker on CPU 1` : where;
    check(
      thought?.endsWith(where) && !thought.startsWith("0 nodes"),
      `level 9 thought on the ${how}: ${thought}`,
    );
    if (held) check(cores.workers() > 0, "the worker's thread was found and held to CPU 1");
    console.log(`phone, level 9 thinking (${how}): ${thinking}`);
    console.log(`phone, its move animating (${how}): ${animating}`);
    await phone.screenshot({ path: join(out, `phone-${where}${held ? "-held" : ""}.png`) });
    check(errors.length === 0, `no errors on the page ${errors.join("; ")}`);
    await context.close();
  }

  // 5: a finished game's review, its moves judged one search each in the worker, and on the
  // page in slices where the worker's script does not load.
  for (const withWorker of [true, false]) {
    const errors = [];
    const page = await openPage(
      browser,
      "review",
      { viewport: { width: 1280, height: 720 }, reducedMotion: "reduce" },
      { out, errors, settings: "(level: 1, language: en, seen_intro: true)" },
    );
    if (!withWorker) {
      await page.context().route(/think-worker-/, (route) => route.fulfill({ status: 404 }));
    }
    const [on, attr] = [page.until, page.attr];
    await page.goto(url);
    await on('[data-screen="title"]', 240);
    await page.waitForTimeout(1500);
    await page.mouse.click(640, 320); // Play
    await on('[data-screen="playing"]', 30);
    // The whole game from the keyboard: the first pit the arrows reach, sown with X.
    await playOutByKeys(page);
    const plies = Number(await attr("data-ply"));
    await page.waitForTimeout(800);
    // The end panel's first button has the focus; Review is the next.
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? "");
    for (let i = 0; i < 6 && !(await focused()).startsWith("Review"); i++) {
      await page.keyboard.press("Tab");
      await page.waitForTimeout(150);
    }
    const button = await focused();
    await page.screenshot({ path: join(out, `over-${withWorker ? "worker" : "page"}.png`) });
    check(button.startsWith("Review"), `the end panel's Review button has the focus ("${button}")`);
    await page.keyboard.press("Enter");
    await on('[data-screen="review"]', 20);
    const started = Date.now();
    const where = withWorker ? "worker" : "page";
    let analysis = "";
    try {
      await page.waitForFunction(
        () => /^(\d+) of \1 moves/.test(document.getElementById("game").dataset.analysis ?? ""),
        null,
        { timeout: 180_000 },
      );
    } catch {}
    analysis = (await attr("data-analysis")) ?? "";
    check(
      analysis === `${plies} of ${plies} moves, ${where}`,
      `a ${plies}-move game reviewed ${withWorker ? "in the worker" : "on the page"}: ` +
        `"${analysis}" in ${Date.now() - started} ms`,
    );
    await page.screenshot({ path: join(out, `review-${where}.png`) });
    check(errors.length === 0, `no errors on the page ${errors.join("; ")}`);
    await page.context().close();
  }
} finally {
  await browser.close();
  closeServer();
}
process.exit(failed ? 1 : 0);
