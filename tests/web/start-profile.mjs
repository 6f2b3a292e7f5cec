// A first visit's start-up, profiled by function (`.ci/start-profile` runs it): the phone's
// page (390 x 844, touch) opens DIST_DIR's game with the CPU slowed 4x, as the deploy test's
// phone does, and Chromium's sampling profiler runs from the navigation until the third frame
// is drawn. What it writes to OUT_JSON (the profile and the page's `oaq:` marks) is read by
// `.ci/start-profile.py`.
//
// usage: node tests/web/start-profile.mjs DIST_DIR OUT_JSON
import { writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { CHROMIUM, PHONE, serveFolder } from "./pages.mjs";

const require = createRequire(join(resolve(process.env.OAQ_NPM ?? "."), "package.json"));
const { chromium } = require("playwright-core");

const [dist, outJson] = process.argv.slice(2);
if (!dist || !outJson) {
  console.error("usage: node tests/web/start-profile.mjs DIST_DIR OUT_JSON");
  process.exit(2);
}
const { url, close } = await serveFolder(dist);
const browser = await chromium.launch(CHROMIUM);
try {
  const context = await browser.newContext({
    ...PHONE, deviceScaleFactor: 2,
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 500 });
  await cdp.send("Profiler.start");
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName("oaq:frame-3-drawn").length > 0,
    null, { timeout: 240000 });
  const { profile } = await cdp.send("Profiler.stop");
  const marks = await page.evaluate(() => Object.fromEntries(
    performance.getEntriesByType("mark").map((mark) => [mark.name, mark.startTime])));
  await writeFile(outJson, JSON.stringify({ profile, marks }));
} finally {
  await browser.close();
  close();
}
