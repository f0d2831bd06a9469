#!/usr/bin/env node
// Two builds' cold loads taken in turns, one load of each after the other, so that the VM's drift
// (20–30% between hours on the 2-core machines, and whole runs of the benchmark apart) falls on
// both alike. For a change whose effect is smaller than that drift, such as a step of the start.
//
//   node bench/ab.mjs --a target/old-dist --b dist [--paths /overview/,/why-size-wins/]
//                     [--runs 12] [--rate 1] [--network mobile]
//
// Each load is the benchmark's cold load (bench.mjs: fresh profile, cache disabled, service
// worker blocked, 1280 × 800, the same marks from `watchLoad`); the order of the two alternates
// from one pair to the next. Per page it prints both builds' medians of first paint, shell running
// and all widgets interactive, and the median of the pairs' differences (b − a), which a slow
// stretch of the VM moves far less than either median. --network takes both on one of the
// benchmark's networks (cli.mjs), for a change in when the page asks for its files.
import { chromium } from 'playwright-core';
import { resolve } from 'node:path';
import { median, NETWORKS, opt, watchLoad } from './cli.mjs';
import { serve } from './serve.mjs';

const a = opt('a'), b = opt('b');
if (!a || !b) throw new Error('usage: node bench/ab.mjs --a DIST --b DIST [--paths P,Q] [--runs N] [--rate R]');
const paths = opt('paths', '/overview/,/why-size-wins/,/model-selection/').split(',');
const runs = Math.max(1, Number(opt('runs', 12)));
const rate = Math.max(1, Number(opt('rate', 1)));
const network = opt('network', 'none');
if (network !== 'none' && !NETWORKS[network]) throw new Error(`--network: none or ${Object.keys(NETWORKS).join(', ')}, not ${network}`);

const servers = { a: await serve(resolve(a)), b: await serve(resolve(b)) };
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});

async function coldLoad(origin, path) {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (rate > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  if (NETWORKS[network]) await cdp.send('Network.emulateNetworkConditions', NETWORKS[network]);
  await page.addInitScript(watchLoad);
  await page.goto(origin + path, { waitUntil: 'load' });
  const ready = () => {
    const w = window.__bench;
    return w.app !== null && (!document.querySelector('[data-widget-slot]') || w.widgets !== null);
  };
  const end = Date.now() + 60_000;
  // Asked every 50 ms, not with waitForFunction (see `until` in bench.mjs).
  while (!(await page.evaluate(ready))) {
    if (Date.now() > end) throw new Error(`${origin}${path} did not get ready in 60 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const m = await page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    app: window.__bench.app,
    widgets: window.__bench.widgets ?? window.__bench.app,
  }));
  await context.close();
  return m;
}

try {
  for (const path of paths) {
    const pairs = [];
    for (let i = 0; i < runs; i++) {
      const pair = {};
      for (const k of i % 2 ? ['b', 'a'] : ['a', 'b']) pair[k] = await coldLoad(servers[k].origin, path);
      pairs.push(pair);
    }
    const mid = (k, m) => median(pairs.map((p) => p[k][m]).filter((x) => x !== null)).toFixed(0);
    const diff = (m) => median(pairs.map((p) => p.b[m] - p.a[m])).toFixed(0);
    const sooner = pairs.filter((p) => p.b.widgets < p.a.widgets).length;
    console.log(`${path} at ${rate}× CPU${network === 'none' ? '' : `, ${network} network`}, ${runs} pairs (medians, ms; a = ${a}, b = ${b})`);
    for (const [m, name] of [['fcp', 'first paint'], ['app', 'shell running'], ['widgets', 'all widgets interactive']]) {
      console.log(`  ${name.padEnd(24)} a ${mid('a', m).padStart(6)}   b ${mid('b', m).padStart(6)}   b − a, paired ${diff(m).padStart(5)}`);
    }
    console.log(`  b's widgets came sooner in ${sooner} of ${runs} pairs`);
  }
} finally {
  await browser.close();
  await servers.a.close();
  await servers.b.close();
}
