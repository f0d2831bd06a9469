// Cold loads of one page in Debian's Firefox ESR (puppeteer-core over WebDriver BiDi, as
// tests/firefox/smoke.mjs drives it), for two builds in turn: when the shell is running and when
// every widget of the page is mounted, as bench.mjs's loads time them in Chromium. Firefox has no
// CPU throttling to ask for, so these are unthrottled. A tool for comparing builds, such as one
// with the warm-up worker and one without (README, "Benchmark").
//
//   node bench/firefox-loads.mjs --a dist-old --b dist --path /model-selection/ [--runs 7]
//
// Each load is in a fresh browser context (its own cache), 412 × 823 as bench.mjs's; the builds
// alternate, and which goes first alternates too. Prints each build's medians and every load.
import puppeteer from 'puppeteer-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median, opt, watchLoad } from './cli.mjs';
import { serve } from './serve.mjs';

const builds = [resolve(opt('a', 'dist')), resolve(opt('b', 'dist'))];
const path = opt('path', '/model-selection/');
const runs = Math.max(1, Number(opt('runs', 7)));

const servers = await Promise.all(builds.map((dir) => serve(dir)));
const profile = mkdtempSync(join(tmpdir(), 'ie-firefox-loads-'));
const browser = await puppeteer.launch({
  browser: 'firefox',
  protocol: 'webDriverBiDi',
  executablePath: process.env.FIREFOX_BIN || '/usr/bin/firefox-esr',
  headless: true,
  userDataDir: profile,
  env: { ...process.env, MOZ_HEADLESS: '1' },
  defaultViewport: { width: 412, height: 823 },
});

/** One cold load of `path` from `origin`: ms from navigation to the app and to all widgets. */
async function load(origin) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.evaluateOnNewDocument(watchLoad);
  await page.goto(origin + path);
  // Asked every 50 ms from here, not with a script of its own in the page.
  for (const end = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 50))) {
    const m = await page.evaluate(() => ({ ...window.__bench, slots: !!document.querySelector('[data-widget-slot]') }));
    if (m.app !== null && (m.widgets !== null || !m.slots)) {
      await context.close();
      return m;
    }
    if (Date.now() > end) throw new Error(`${origin}${path} did not start in 30 s`);
  }
}

try {
  const results = builds.map(() => []);
  for (let run = 0; run < runs; run++) {
    for (const i of run % 2 ? [1, 0] : [0, 1]) results[i].push(await load(servers[i].origin));
  }
  const ms = (x) => (x === null || x === undefined ? '-' : x.toFixed(0));
  builds.forEach((dir, i) => {
    const of = (k) => results[i].map((m) => m[k]).filter((x) => x !== null);
    console.log(`${dir} ${path}: app ${ms(median(of('app')))} ms, all widgets ${ms(median(of('widgets')))} ms (medians of ${runs})`);
    console.log(`  loads (app, widgets): ${results[i].map((m) => `${ms(m.app)}/${ms(m.widgets)}`).join(' ')}`);
  });
} finally {
  await browser.close();
  await Promise.all(servers.map((s) => s.close()));
  rmSync(profile, { recursive: true, force: true });
}
