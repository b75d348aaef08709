// The HTML pages in a real browser: Debian's Chromium driven by puppeteer-core. Each case checks
// a shipped scenario with the `interleave` binary of the build, renders its counterexample with
// `show --format html`, loads the page and checks what a reader sees: a lane per actor, the race
// and the violation highlighted, the steps not involved folded, hover and keyboard, that nothing
// is fetched, and the size. Screenshots go to the artefact directory.
//
//   node pages.test.js CASE ARTEFACT_DIR     (CASE: seed, timed, large, index)
// Environment: INTERLEAVE_BINARY, INTERLEAVE_SOURCE_DIR; CHROMIUM (default /usr/bin/chromium).
// Exit 0: passed; 1: failed; 77: skipped (no Chromium or no puppeteer-core installed).
"use strict";
const assert = require("node:assert/strict");
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

const kCases = {
  // The seed: 4.1.1's cleaner drops a live session's table.
  seed: { scenario: "seed-starrocks-4.1.1.json", trace: "live-owner-table-dropped", race: true },
  // A timed trace: steps at their times, gaps of seconds between them.
  timed: { scenario: "seed-starrocks-4.1.1-timed.json", trace: "live-owner-table-dropped", race: true },
  // The large configuration's trace, lifted from the decomposed search: 16 actors, no race named
  // (the lifted trace is not searched for one).
  large: { scenario: "large-pr-79339-decomposed.json", trace: "live-owner-table-dropped", race: false },
};
const kMaxBytes = 2 * 1024 * 1024;
// `gate --report DIR`'s index.html: the scenarios, each counterexample linked to its page.
const kIndexScenarios = ["seed-starrocks-4.1.1.json", "h5-create-time-guard-holds.json"];

function skip(why) {
  console.log("SKIPPED: " + why);
  process.exit(77);
}

const [caseName, artefacts] = process.argv.slice(2);
const spec = kCases[caseName];
if ((!spec && caseName !== "index") || !artefacts) {
  console.error("usage: node pages.test.js seed|timed|large|index ARTEFACT_DIR");
  process.exit(2);
}
const binary = process.env.INTERLEAVE_BINARY;
const source = process.env.INTERLEAVE_SOURCE_DIR;
const chromium = process.env.CHROMIUM || "/usr/bin/chromium";
if (!fs.existsSync(chromium)) skip(chromium + " is not installed (scripts/deps.sh installs it)");
let puppeteer;
try {
  puppeteer = require("puppeteer-core");
} catch (e) {
  skip("puppeteer-core is not installed (tests/browser/install.sh installs it)");
}

// The trace: `check` writes it into a fresh directory; `show --format html` draws it.
function render() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "interleave-browser-"));
  // Run from the source tree, so that the page names the scenario as scenarios/NAME.json.
  const scenario = path.join("scenarios", spec.scenario);
  try {
    execFileSync(binary, ["check", scenario, "--out", dir, "-q"], { stdio: "pipe", cwd: source });
    assert.fail("check found no violation in " + spec.scenario);
  } catch (e) {
    if (e.code === "ERR_ASSERTION") throw e;
    assert.equal(e.status, 1, "check exits with 1 (a violation): " + String(e.stderr));
  }
  const name = fs.readdirSync(dir).sort().find((f) => f.endsWith("." + spec.trace + ".trace.json"));
  assert.ok(name, "a ." + spec.trace + ".trace.json trace in " + fs.readdirSync(dir).join(", "));
  const tracePath = path.join(dir, name);
  const trace = JSON.parse(fs.readFileSync(tracePath, "utf8"));
  const html = execFileSync(binary, ["show", tracePath, "--format", "html"], {
    maxBuffer: 64 * 1024 * 1024,
  });
  fs.mkdirSync(artefacts, { recursive: true });
  const page = path.join(artefacts, caseName + ".html");
  fs.writeFileSync(page, html);
  fs.rmSync(dir, { recursive: true, force: true });
  return { trace, page, bytes: html.length };
}

// What the page must show, from the trace document itself.
function expected(trace) {
  const actors = [];
  for (const s of trace.steps) if (!actors.includes(s.actor)) actors.push(s.actor);
  if (trace.violation.actor && !actors.includes(trace.violation.actor)) actors.push(trace.violation.actor);
  const v = trace.violation;
  const violating = v.found_at !== undefined ? v.found_at : v.step < trace.steps.length ? v.step : null;
  return { actors, violating, race: trace.race ? [trace.race.first, trace.race.second] : null };
}

async function main() {
  const { trace, page: pagePath, bytes } = render();
  const want = expected(trace);
  assert.ok(bytes <= kMaxBytes, `the page has ${bytes} bytes, at most ${kMaxBytes}`);
  assert.equal(Boolean(want.race), spec.race, "the trace names a race: " + spec.race);

  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
    timeout: 120000,
    protocolTimeout: 120000,
  });
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(60000);
    await page.setViewport({ width: 1600, height: 1100 });
    const url = pathToFileURL(pagePath).href;
    const requests = [];
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
    await page.setRequestInterception(true);
    page.on("request", (r) => {
      if (r.url() === url) return r.continue();
      requests.push(r.url());
      return r.abort();
    });
    await page.goto(url, { waitUntil: "load" });
    await page.waitForSelector("body[data-ready=true]");
    assert.deepEqual(requests, [], "the page fetches nothing");
    assert.deepEqual(errors, [], "no script errors");

    // A lane per actor, in order of first appearance.
    const lanes = await page.$$eval("th.actor", (ths) => ths.map((t) => t.textContent));
    assert.deepEqual(lanes, want.actors);
    // Every step is on the page, in its actor's lane.
    const steps = await page.$$eval("tr.step[data-p]", (rows) =>
      rows.map((r) => ({ id: r.id, lane: Number(r.querySelector("td.cell").dataset.lane) })));
    assert.deepEqual(steps, trace.steps.map((s) => ({ id: "step-" + s.index, lane: want.actors.indexOf(s.actor) })));

    // The race's two steps and the violating step highlighted.
    const race = await page.$$eval("tr.step.race", (rows) => rows.map((r) => r.id));
    assert.deepEqual(race, (want.race || []).map((i) => "step-" + i));
    const violating = await page.$$eval("tr.step.violating", (rows) => rows.map((r) => r.id));
    assert.deepEqual(violating, want.violating === null ? ["violation-end"] : ["step-" + want.violating]);
    if (want.race) {
      const raceColour = await page.$eval(`#step-${want.race[0]} .card`, (c) => getComputedStyle(c).backgroundColor);
      assert.equal(raceColour, "rgb(255, 244, 220)");
    }
    if (want.violating !== null) {
      const badColour = await page.$eval(`#step-${want.violating} .card`, (c) => getComputedStyle(c).backgroundColor);
      assert.equal(badColour, "rgb(255, 227, 225)");
    }

    // The steps not involved are folded: the rows shown are the causal slice's, and 'f' shows all.
    const shown = () => page.$$eval("tr.step[data-p]", (rows) => rows.filter((r) => r.offsetParent !== null).length);
    const uninvolved = await page.$$eval("tr.step.uninvolved", (rows) => rows.length);
    assert.ok(uninvolved > 0, "some steps are not involved");
    assert.equal(await shown(), trace.steps.length - uninvolved);
    for (const i of [...(want.race || []), ...(want.violating === null ? [] : [want.violating])])
      assert.ok(await page.$eval("#step-" + i, (r) => r.offsetParent !== null), `step ${i} is shown`);

    // The screenshot: the race's first step pinned (else the violating step), its details shown.
    await page.keyboard.press(want.race ? "r" : "v");
    await page.waitForSelector("#details h2");
    await page.setViewport({ width: 1600, height: 1400 });
    await page.screenshot({ path: path.join(artefacts, caseName + ".png") });
    await page.setViewport({ width: 1600, height: 1100 });
    await page.keyboard.press("Escape");

    // Hover: the step's accesses and the state after it, with what it changed marked.
    // The race's first step, else the violating step, else the first.
    const first = want.race ? want.race[0] : want.violating !== null ? want.violating : 0;
    await page.hover(`#step-${first} .card`);
    await page.waitForFunction((p) => document.getElementById("details").dataset.p === String(p), {}, first);
    const heading = await page.$eval("#details h2", (h) => h.textContent);
    assert.ok(heading.startsWith("#" + first + " "), heading);
    const accesses = await page.$$eval("#details ul.accesses li", (li) => li.map((l) => l.textContent));
    assert.deepEqual(accesses, trace.steps[first].accesses.map((a) => a.access + " " + a.object));
    if (trace.states) {
      const after = trace.states[first];
      const before = first > 0 ? trace.states[first - 1] : null;
      const keys = await page.$$eval("#details .kv", (kvs) =>
        kvs.map((k) => ({ key: k.dataset.key, changed: k.classList.contains("changed") })));
      assert.deepEqual(keys.map((k) => k.key), Object.keys(after));
      const changedKeys = Object.keys(after).filter(
        (k) => !before || JSON.stringify(before[k]) !== JSON.stringify(after[k]));
      assert.deepEqual(keys.filter((k) => k.changed).map((k) => k.key), changedKeys);
      // The value shown is the state's.
      const k0 = Object.keys(after)[0];
      const text = await page.$eval(`#details .kv[data-key="${k0}"]`, (k) => k.textContent);
      assert.equal(text, k0 + " = " + JSON.stringify(after[k0]));
    }
    await page.screenshot({ path: path.join(artefacts, caseName + "-hover.png") });
    await page.mouse.move(1, 1);  // off the steps: the panel shows nothing pinned

    // The keyboard: v the violation, r the race (its first step, then its second), j and k.
    const current = () => page.$$eval("tr.current", (rows) => rows.map((r) => r.id));
    const details = () => page.$eval("#details", (d) => d.dataset.p);
    if (want.violating !== null) {
      await page.keyboard.press("v");
      assert.deepEqual(await current(), ["step-" + want.violating]);
      assert.equal(await details(), String(want.violating));
    }
    let from = want.violating;
    if (want.race) {
      await page.keyboard.press("r");
      assert.deepEqual(await current(), ["step-" + want.race[0]]);
      await page.keyboard.press("r");
      assert.deepEqual(await current(), ["step-" + want.race[1]]);
      from = want.race[1];
    }
    const visibleIds = await page.$$eval("tr.step[data-p]", (rows) =>
      rows.filter((r) => r.offsetParent !== null).map((r) => r.id));
    const at = visibleIds.indexOf("step-" + from);
    assert.ok(at > 0, "a step shown before step " + from);
    await page.keyboard.press("k");
    assert.deepEqual(await current(), [visibleIds[at - 1]]);
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    assert.deepEqual(await current(), [visibleIds[Math.min(at + 1, visibleIds.length - 1)]]);
    await page.keyboard.press("Escape");
    assert.deepEqual(await current(), []);
    await page.keyboard.press("f");
    assert.equal(await shown(), trace.steps.length);
    await page.keyboard.press("f");
    assert.equal(await shown(), trace.steps.length - uninvolved);
    // A fold row opens its run.
    const run = await page.$eval("tr.fold", (r) => ({ run: r.dataset.run, n: document.querySelectorAll(`tr.uninvolved[data-run="${r.dataset.run}"]`).length }));
    await page.click(`tr.fold[data-run="${run.run}"] td[colspan]`);
    assert.equal(await shown(), trace.steps.length - uninvolved + run.n);

    if (caseName === "timed") {
      // The time axis: every step at its time, gaps of a second or more marked, zoom.
      const times = await page.$$eval("tr.step[data-p] td.axis .t", (ts) => ts.map((t) => t.textContent));
      assert.equal(times.length, trace.steps.length);
      assert.equal(times[times.length - 1], (Math.floor(trace.steps[trace.steps.length - 1].time_us / 1000) / 1000).toFixed(3) + " s");
      const gaps = trace.steps.filter((s, i) => i > 0 && s.time_us - trace.steps[i - 1].time_us >= 1e6).length;
      assert.equal(await page.$$eval("td.axis .gap", (g) => g.length), gaps);
      assert.ok(gaps > 0, "the timed trace has a gap of a second or more");
      const padding = () => page.$$eval("tr.step[data-p] > td.axis", (tds) => tds.reduce((sum, td) => sum + parseFloat(getComputedStyle(td).paddingTop), 0));
      const before = await padding();
      await page.keyboard.press("+");
      const after = await padding();
      assert.ok(after > before * 1.2, `zooming in lowers the steps (${before} -> ${after})`);
      await page.keyboard.press("-");
    }
    assert.deepEqual(requests, [], "the page fetched nothing");
    assert.deepEqual(errors, [], "no script errors");
    console.log(`${caseName}: ${trace.steps.length} steps, ${want.actors.length} lanes, ${bytes} bytes: passed`);
  } finally {
    await browser.close();
  }
}

// The gate's index.html: a row per scenario, each counterexample a link that opens its page.
async function mainIndex() {
  const report = path.join(artefacts, "gate-report");
  fs.rmSync(report, { recursive: true, force: true });
  execFileSync(binary, ["gate", ...kIndexScenarios.map((f) => path.join("scenarios", f)), "--report", report, "-q"],
    { stdio: "pipe", cwd: source });
  const traces = fs.readdirSync(report).filter((f) => f.endsWith(".trace.json")).sort();
  assert.ok(traces.length > 0);
  const browser = await puppeteer.launch({
    executablePath: chromium, headless: true, timeout: 120000, protocolTimeout: 120000,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
  });
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(60000);
    await page.setViewport({ width: 1400, height: 700 });
    const requests = [];
    await page.setRequestInterception(true);
    page.on("request", (r) => {
      // Only the report's own files: the index and the pages it links.
      if (r.url().startsWith(pathToFileURL(report).href + "/")) return r.continue();
      requests.push(r.url());
      return r.abort();
    });
    await page.goto(pathToFileURL(path.join(report, "index.html")).href, { waitUntil: "load" });
    const rows = await page.$$eval("table.index tbody tr", (trs) => trs.map((t) => t.className));
    assert.equal(rows.length, kIndexScenarios.length + 1);  // the seed's incident is a case too
    const links = await page.$$eval("table.index a", (as) => as.map((a) => a.getAttribute("href")).sort());
    assert.deepEqual(links, traces.map((t) => t.replace(/\.trace\.json$/, ".html")));
    await page.screenshot({ path: path.join(artefacts, "index.png") });
    await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click("table.index a")]);
    await page.waitForSelector("body[data-ready=true]");
    assert.ok((await page.$$eval("th.actor", (ths) => ths.length)) > 1, "the linked page has its lanes");
    assert.deepEqual(requests, [], "nothing outside the report is fetched");
    console.log(`index: ${rows.length} scenarios, ${links.length} counterexample pages: passed`);
  } finally {
    await browser.close();
  }
}

(caseName === "index" ? mainIndex() : main()).catch((e) => {
  console.error(e);
  process.exit(1);
});
