// SPDX-License-Identifier: EPL-2.0
// The HTML report driven like a person would, in headless Chromium through
// playwright-core (issue 22): every request the page makes is observed (it
// must make none but its own load), nothing reaches the console, and
// clicking a link in the network picture opens that link with its proof
// drawn. A canary page that requests an image and logs an error proves both
// observers can fail.
//
//   node html_report_page.js NODE_MODULES CHROMIUM REPORT OUT_DIR
// Writes OUT_DIR/proof.png (the first link's proof) and OUT_DIR/page.png.
// Exit 0: passed; 1: failed; 77: playwright-core is not installed.
'use strict';
const fs = require('fs');
const path = require('path');
const url = require('url');

const [modules, chromium, report, outDir] = process.argv.slice(2);
let playwright;
try {
  playwright = require(path.join(modules, 'playwright-core'));
} catch (e) {
  console.log(`SKIPPED: playwright-core is not installed in ${modules} (scripts/setup.sh --test installs it)`);
  process.exit(77);
}

const failures = [];
const fail = (what) => failures.push(what);

// Everything the page asks for and says, apart from loading itself.
function watch(page, own) {
  const seen = { requests: [], console: [] };
  page.on('request', (r) => {
    if (r.url().split('#')[0] !== own) seen.requests.push(r.url());
  });
  page.on('websocket', (w) => seen.requests.push(w.url()));
  page.on('console', (m) => seen.console.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => seen.console.push(`uncaught: ${e.message}`));
  return seen;
}

async function main() {
  const browser = await playwright.chromium.launch({
    executablePath: chromium,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });

    // The canary: the observers see a request for an image and an error.
    const canaryFile = path.join(outDir, 'canary-requests.html');
    fs.writeFileSync(canaryFile, '<!DOCTYPE html><img alt="" s' + 'rc="http://127.0.0.1:9/x.png"><script>console.error("canary")</script>');
    const canaryUrl = url.pathToFileURL(canaryFile).href;
    const canary = await context.newPage();
    const canarySeen = watch(canary, canaryUrl);
    await canary.goto(canaryUrl, { waitUntil: 'load' }).catch(() => {});
    await canary.waitForTimeout(200);
    if (!canarySeen.requests.some((r) => r.startsWith('http://127.0.0.1:9/'))) fail('the request observer missed the canary\'s image request');
    if (!canarySeen.console.some((m) => m.includes('canary'))) fail('the console observer missed the canary\'s error');
    await canary.close();

    const own = url.pathToFileURL(path.resolve(report)).href;
    const page = await context.newPage();
    const seen = watch(page, own);
    await page.goto(own, { waitUntil: 'load' });
    await page.screenshot({ path: path.join(outDir, 'page.png') });

    // The summary's proof line is there, with its numbers.
    const causality = await page.textContent('#causality');
    if (!/received before they were sent; after synchronization, \d+/.test(causality || '')) fail(`no causality summary: ${causality}`);

    // A click on the first link's label in the tree drawing (when it is
    // unfolded) opens its details and draws its histograms; else a click on
    // the first link of the list.
    const edge = await page.$('#network-svg a.edge');
    const label = await page.$('#network-svg a.edge text');
    let id;
    if (edge && label && await label.isVisible()) {
      id = (await edge.getAttribute('href')).slice(1);
      await label.click();
    } else {
      id = 'link-0';
      await page.click('#link-0 > summary');
    }
    const item = await page.waitForSelector(`#${id}[open]`, { timeout: 10000 }).catch(() => null);
    if (!item) {
      fail(`clicking the link did not open #${id}`);
    } else {
      const n = id.slice('link-'.length);
      const drawn = await page.$$(`#${id} #proof-${n} svg.hist`);
      const bars = await page.$$(`#${id} #proof-${n} svg.hist rect.after`);
      const directions = await page.$$(`#${id} #proof-${n} .bars`);
      if (drawn.length !== directions.length || drawn.length === 0) fail(`#${id}: ${drawn.length} histogram(s) drawn of ${directions.length}`);
      // Bars after synchronization, or, across islands, words saying why not.
      const synchronized = await page.$$eval(`#${id} .bars`, (boxes) =>
        boxes.some((b) => JSON.parse(b.getAttribute('data-bars')).s === 1));
      const apart = await page.$$(`#${id} svg.hist text:text("no common time base")`);
      if (synchronized && bars.length === 0) fail(`#${id}: no bar of latencies after synchronization`);
      if (!synchronized && apart.length !== directions.length) fail(`#${id}: no "after", and no words for why`);
      const title = await page.$eval(`#${id} svg.hist rect title`, (t) => t.textContent).catch(() => '');
      if (!/: \d+ message\(s\) (before|after) synchronization$/.test(title)) fail(`#${id}: a bar's title says '${title}'`);
      const proof = await page.$(`#proof-${n}`);
      await proof.scrollIntoViewIfNeeded();
      await proof.screenshot({ path: path.join(outDir, 'proof.png') });
    }

    // Printing opens and draws everything.
    await page.emulateMedia({ media: 'print' });
    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
    const undrawn = await page.$$eval('.bars', (boxes) => boxes.filter((b) => !b.querySelector('svg')).length);
    if (undrawn > 0) fail(`${undrawn} histogram(s) not drawn for printing`);

    await page.waitForTimeout(200);
    if (seen.requests.length > 0) fail(`the page made ${seen.requests.length} request(s): ${seen.requests.slice(0, 5).join(', ')}`);
    if (seen.console.length > 0) fail(`the page wrote to the console: ${seen.console.slice(0, 5).join(' | ')}`);
  } finally {
    await browser.close();
  }
}

main().then(
  () => {
    if (failures.length > 0) {
      for (const f of failures) console.error(`FAIL: ${f}`);
      process.exit(1);
    }
    console.log(`OK: no request, nothing on the console, the proof drawn on opening (${report})`);
  },
  (e) => {
    console.error(`FAIL: ${e.stack || e}`);
    process.exit(1);
  },
);
