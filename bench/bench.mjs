#!/usr/bin/env node
// The course's benchmark: cold loads, in-app moves to a lesson, input → paint for each widget,
// the distillation run's frames, and Lighthouse, against a built site served on 127.0.0.1 (see serve.mjs), in Debian's
// Chromium driven by Playwright. Prints a table and writes the same figures as JSON.
//
//   node bench/bench.mjs [--dist dist] [--runs 7] [--changes 60] [--out bench/results/latest.json]
//                        [--no-lighthouse] [--lighthouse-pages all|first|/a/,/b/] [--lighthouse-runs 3]
//                        [--lighthouse-presets mobile,desktop]
//                        [--parts loads,nav,inputs,distill,eval-scale,lighthouse,lab] [--nav /a/,/b/]
//                        [--loads /,/a/] [--widgets 'latency explorer,cards']
//                        [--eval-cases 10,1000,5000]
//                        [--browser-args '--js-flags=--no-wasm-lazy-compilation'] [--network mobile]
//   node bench/bench.mjs --compare old.json new.json
//
// tools/bench.sh builds the release site and runs this (README, "Benchmark").
import { chromium } from 'playwright-core';
import { spawn, execSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { brotliCompressSync, constants } from 'node:zlib';
import { argv, NETWORKS, opt, watchLoad } from './cli.mjs';
import { serve } from './serve.mjs';
import { WIDGETS } from './widgets.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const CHROMIUM = process.env.CHROME_PATH || '/usr/bin/chromium';
// Debian's Chromium as this machine needs it (no sandbox as root, no calls home).
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// ---------------------------------------------------------------- arguments
if (argv.includes('--compare')) {
  const i = argv.indexOf('--compare');
  compare(argv[i + 1], argv[i + 2]);
  process.exit(0);
}
const dist = resolve(opt('dist', join(root, 'dist')));
const RUNS = Number(opt('runs', 7));
const CHANGES = Math.max(50, Number(opt('changes', 60)));
const out = resolve(opt('out', join(here, 'results', 'latest.json')));
// How many cases the mini eval's import and toggles are measured at (--eval-cases 100,20000).
const EVAL_CASES = opt('eval-cases', '10,1000,5000').split(',').map(Number);
const parts = new Set(opt('parts', 'loads,nav,inputs,distill,eval-scale,lighthouse').split(','));
// Which widgets' input → paint to time (by name, as in bench/widgets.mjs): all by default.
const WIDGET_NAMES = opt('widgets', '').split(',').filter(Boolean);
// Lessons reached from the title page inside the app (--nav /a/,/b/): the first and the 1.3 lesson.
const NAV_TO = opt('nav', '/overview/,/model-selection/').split(',');
// Pages loaded cold (--loads /,/model-selection/): by default the title page and the first lesson.
const LOADS = opt('loads', 'first');
if (argv.includes('--no-lighthouse')) parts.delete('lighthouse');
const lighthouseOn = parts.has('lighthouse');
const lighthousePages = opt('lighthouse-pages', 'all');
// Lighthouse runs per page and preset; the median run is reported (--lighthouse-runs 3).
const LIGHTHOUSE_RUNS = Math.max(1, Number(opt('lighthouse-runs', 1)));
// Which of Lighthouse's presets run (--lighthouse-presets mobile: the one the targets are about).
const LIGHTHOUSE_PRESETS = opt('lighthouse-presets', 'mobile,desktop').split(',').filter((p) => p === 'mobile' || p === 'desktop');
const THROTTLES = [1, 4];
// More Chromium switches for every browser the benchmark starts, Lighthouse's included, separated
// by spaces: an experiment's knob (for example V8's `--js-flags=…`), recorded in the JSON beside
// the figures it changed. The site's readers run with none.
const BROWSER_ARGS = opt('browser-args', '').split(/\s+/).filter(Boolean);
// The network of the cold loads and in-app moves: none by default, or `--network mobile`
// (cli.mjs, `NETWORKS`).
const NETWORK = opt('network', 'none');
if (NETWORK !== 'none' && !NETWORKS[NETWORK]) throw new Error(`--network: none or ${Object.keys(NETWORKS).join(', ')}, not ${NETWORK}`);

// ---------------------------------------------------------------- statistics
function r1(x) { return Math.round(x * 10) / 10; }
const sorted = (xs) => [...xs].sort((a, b) => a - b);
/** Nearest-rank percentile. */
const pct = (xs, p) => { const s = sorted(xs); return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN; };
const summary = (xs) => ({ median: r1(pct(xs, 50)), p99: r1(pct(xs, 99)), max: r1(Math.max(...xs)), n: xs.length });
const kb = (bytes) => r1(bytes / 1024);

// ---------------------------------------------------------------- the site
/** Lesson paths in reading order, read from the built title page's contents. */
function lessonPaths() {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const nav = html.match(/<nav[^>]*id="toc"[\s\S]*?<\/nav>/);
  const paths = [...(nav ? nav[0] : html).matchAll(/href="([^"#]+\/)"/g)].map((m) => m[1].replace(/^\.?\/?/, '/'));
  return [...new Set(paths)].filter((p) => p !== '/' && existsSync(join(dist, p, 'index.html')));
}

const unknownWidgets = WIDGET_NAMES.filter((n) => !WIDGETS.some((w) => w.name === n));
if (unknownWidgets.length) throw new Error(`--widgets: no widget named ${unknownWidgets.join(', ')} (${WIDGETS.map((w) => w.name).join(', ')})`);

// ---------------------------------------------------------------- the browser
async function newPage(browser, throttle, { cache = false, network = true } = {}) {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  if (!cache) await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Performance.enable');
  if (throttle > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  if (network && NETWORKS[NETWORK]) await cdp.send('Network.emulateNetworkConditions', NETWORKS[NETWORK]);
  await page.addInitScript(watchLoad);
  return { context, page, cdp };
}

/** Waits until `fn(arg)` holds in the page, asking every 50 ms. Not `page.waitForFunction`:
 * that injects Playwright's own script into the page, whose compile shows up as a long task of
 * the page's load at 4× CPU. */
async function until(page, fn, arg, timeout = 60_000) {
  const end = Date.now() + timeout;
  while (!(await page.evaluate(fn, arg))) {
    if (Date.now() > end) throw new Error(`the page did not get ready in ${timeout / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const brCache = new Map();
const brotliOf = (buf) => {
  const key = buf.length + ':' + buf.subarray(0, 64).toString('hex') + buf.subarray(-64).toString('hex');
  if (!brCache.has(key)) brCache.set(key, brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length);
  return brCache.get(key);
};
const kindOf = (url, type) => {
  const p = new URL(url).pathname;
  if (p.endsWith('.wasm') || /wasm/.test(type)) return 'wasm';
  if (p.endsWith('.js') || /javascript/.test(type)) return 'js';
  if (p.endsWith('.css') || /css/.test(type)) return 'css';
  if (p.endsWith('/') || p.endsWith('.html') || /html/.test(type)) return 'html';
  return 'other';
};

/** One cold load: fresh profile, cache disabled; the transfer counts each file once. */
async function coldLoad(browser, origin, path, throttle) {
  const { context, page, cdp } = await newPage(browser, throttle);
  const bodies = [];
  page.on('response', (res) => bodies.push(res.body().then((b) => ({ url: res.url(), type: res.headers()['content-type'] || '', body: b })).catch(() => null)));
  await page.goto(origin + path, { waitUntil: 'load' });
  const hasWidget = await page.evaluate(() => !!document.querySelector('.widget-slot'));
  await until(page, (w) => window.__bench.app !== null && (!w || window.__bench.widgets !== null), hasWidget);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  const marks = await page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    return { ...window.__bench, fcp: fcp ? fcp.startTime : null };
  });
  const metrics = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  const transfer = {};
  // Each file once: with the cache disabled, a file asked for twice in one load comes twice (the
  // worker that compiles the wasm first imports the module's script and snippets the page has
  // imported), where a browser serves the second from its cache.
  const counted = new Set();
  for (const r of (await Promise.all(bodies)).filter(Boolean)) {
    if (counted.has(r.url)) continue;
    counted.add(r.url);
    const k = kindOf(r.url, r.type);
    transfer[k] ??= { raw: 0, br: 0, files: 0 };
    transfer[k].raw += r.body.length;
    transfer[k].br += brotliOf(r.body);
    transfer[k].files += 1;
  }
  await context.close();
  return {
    fcp: marks.fcp, lcp: marks.lcp, app: marks.app, widget: hasWidget ? marks.widget : null,
    widgets: hasWidget ? marks.widgets : null,
    longestTask: Math.max(0, ...marks.longtasks), longTasks: marks.longtasks.length,
    heapMB: metrics.JSHeapUsedSize / 1048576, transfer,
  };
}

async function loads(browser, origin, path, throttle) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await coldLoad(browser, origin, path, throttle));
  const of = (k) => runs.map((r) => r[k]).filter((x) => x !== null && x !== undefined);
  const kinds = [...new Set(runs.flatMap((r) => Object.keys(r.transfer)))].sort();
  const transfer = Object.fromEntries(kinds.map((k) => [k, {
    raw_kb: kb(pct(runs.map((r) => r.transfer[k]?.raw ?? 0), 50)),
    br_kb: kb(pct(runs.map((r) => r.transfer[k]?.br ?? 0), 50)),
    files: pct(runs.map((r) => r.transfer[k]?.files ?? 0), 50),
  }]));
  const total = (field) => kb(pct(runs.map((r) => Object.values(r.transfer).reduce((a, t) => a + t[field], 0)), 50));
  return {
    path, throttle, runs: runs.length,
    transfer, total_raw_kb: total('raw'), total_br_kb: total('br'),
    fcp_ms: summary(of('fcp')), lcp_ms: summary(of('lcp')), app_interactive_ms: summary(of('app')),
    widget_interactive_ms: of('widget').length ? summary(of('widget')) : null,
    all_widgets_interactive_ms: of('widgets').length ? summary(of('widgets')) : null,
    longest_task_ms: summary(of('longestTask')), long_tasks: summary(of('longTasks')),
    js_heap_mb: summary(of('heapMB')),
  };
}

/** Input → paint for one widget: `CHANGES` changes, each timed in the page. */
async function inputToPaint(browser, origin, w, throttle) {
  const { context, page } = await newPage(browser, throttle, { cache: true, network: false });
  await page.goto(origin + w.path);
  const card = page.locator(`section.widget[data-widget="${w.widget}"]`);
  await card.waitFor({ timeout: 60_000 });
  await card.scrollIntoViewIfNeeded();
  await page.waitForTimeout(300);
  const lt0 = await page.evaluate(() => window.__bench.longtasks.length);
  const result = await page.evaluate(async ({ w, n }) => {
    const card = document.querySelector(`section.widget[data-widget="${w.widget}"]`);
    const field = card.querySelectorAll(w.field)[w.nth ?? 0];
    const out = card.querySelector(w.output);
    if (!field || !out) throw new Error(`${w.name}: field or output not found`);
    const original = field.value;
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const task = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); });
    const work = []; const paint = []; const next = []; const two = []; let unchanged = 0;
    if (!w.keys) {
      // Start from the last value of the cycle, so that every change below changes something.
      const last = w.values[w.values.length - 1];
      field.value = last === null ? original : last;
      field.dispatchEvent(new Event('input', { bubbles: true }));
    }
    await frame();
    await frame();
    for (let i = 0; i < n; i++) {
      const before = out.textContent;
      const t0 = performance.now();
      if (w.keys) {
        const key = w.keys[i % w.keys.length];
        field.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
      } else {
        const v = w.values[i % w.values.length];
        field.value = v === null ? original : v;
        field.dispatchEvent(new Event('input', { bubbles: true }));
      }
      // The handler's work and every effect it set off (Leptos runs those as microtasks, all
      // done before the next task starts).
      await task();
      work.push(performance.now() - t0);
      await frame();
      const tFrame = performance.now();
      next.push(tFrame - t0);
      // A task queued in the frame's callbacks runs once that frame's style, layout and paint
      // are done: the update's own cost to the screen is the work plus that, without the wait
      // for vsync in between.
      await task();
      paint.push(work[work.length - 1] + performance.now() - tFrame);
      await frame();
      two.push(performance.now() - t0);
      if (out.textContent === before) unchanged++;
    }
    return { work, paint, next, two, unchanged };
  }, { w, n: CHANGES });
  const lt = await page.evaluate((from) => window.__bench.longtasks.slice(from), lt0);
  await context.close();
  if (result.unchanged > 0) throw new Error(`${w.name}: ${result.unchanged} of ${CHANGES} changes left the output as it was`);
  return {
    widget: w.name, throttle, changes: CHANGES,
    update_ms: summary(result.work), paint_ms: summary(result.paint), next_frame_ms: summary(result.next), two_frames_ms: summary(result.two),
    long_tasks: lt.length, longest_task_ms: Math.max(0, ...lt),
  };
}

/** The mini eval at scale: `n` cases' pass/fail columns pasted as a reader pastes them (the
 * clipboard, Ctrl+V: the browser's own work on the paste, the longest task until the frame
 * after it has settled) and imported (click → the summary painted, and the longest task on the
 * way), then `CHANGES` verdict toggles (input → paint, timed as in `inputToPaint`), and the
 * document's element count. */
async function evalScale(browser, origin, n, throttle) {
  const { context, page } = await newPage(browser, throttle, { cache: true, network: false });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  await page.goto(origin + '/model-selection/');
  const card = page.locator('section.widget[data-widget="mini-eval"]');
  await card.waitFor({ timeout: 60_000 });
  await card.scrollIntoViewIfNeeded();
  await page.waitForTimeout(300);
  const want = await page.evaluate(async (n) => {
    const lines = [];
    for (let i = 0; i < n; i++) lines.push(i % 7 === 0 ? 'pass\tfail' : i % 11 === 0 ? 'fail\tpass' : 'pass\tpass');
    await navigator.clipboard.writeText(lines.join('\n'));
    return Number(lines.filter((l) => l === 'pass\tfail').length).toLocaleString('en-US');
  }, n);
  await card.getByTestId('eval-import').focus();
  const lt00 = await page.evaluate(() => window.__bench.longtasks.length);
  await page.keyboard.press('Control+V');
  // The paste's own frame (the browser laying out what it put in the field), then a settle.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 200)))));
  const pasteTasks = await page.evaluate((from) => window.__bench.longtasks.slice(from), lt00);
  const lt0 = await page.evaluate(() => window.__bench.longtasks.length);
  const imported = await page.evaluate(async (want) => {
    const card = document.querySelector('section.widget[data-widget="mini-eval"]');
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const task = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); });
    const count = (id) => card.querySelector(`[data-testid="eval-bucket-${id}"] .eval-bucket-count`)?.textContent;
    const t0 = performance.now();
    card.querySelector('[data-testid="eval-import-apply"]').click();
    // Done once the regressed count reads the pasted figure, painted.
    while (count('regressed') !== want) {
      await frame();
      if (performance.now() - t0 > 120_000) throw new Error(`eval import: no summary after 120 s`);
    }
    await task();
    return { import_ms: performance.now() - t0 };
  }, want);
  const importTasks = await page.evaluate((from) => window.__bench.longtasks.slice(from), lt0);
  const lt1 = await page.evaluate(() => window.__bench.longtasks.length);
  const toggles = await page.evaluate(async (n) => {
    const card = document.querySelector('section.widget[data-widget="mini-eval"]');
    // The regressed count moves by one with each toggle (an accuracy may not, once rounded).
    const out = card.querySelector('[data-testid="eval-bucket-regressed"] .eval-bucket-count');
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const task = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); });
    const paint = []; let unchanged = 0;
    for (let i = 0; i < n; i++) {
      const box = card.querySelector('li.eval-case:nth-child(2) [data-testid="eval-candidate-pass"]');
      const before = out.textContent;
      const t0 = performance.now();
      box.click();
      await task();
      const work = performance.now() - t0;
      await frame();
      const tFrame = performance.now();
      await task();
      paint.push(work + performance.now() - tFrame);
      await frame();
      if (out.textContent === before) unchanged++;
    }
    return { paint, unchanged, nodes: document.getElementsByTagName('*').length };
  }, CHANGES);
  const toggleTasks = await page.evaluate((from) => window.__bench.longtasks.slice(from), lt1);
  await context.close();
  if (toggles.unchanged > 0) throw new Error(`eval at ${n}: ${toggles.unchanged} of ${CHANGES} toggles left the regressed count as it was`);
  return {
    cases: n, throttle, paste_longest_task_ms: r1(Math.max(0, ...pasteTasks)), import_ms: r1(imported.import_ms),
    import_long_tasks: importTasks.length, import_longest_task_ms: r1(Math.max(0, ...importTasks)),
    toggle_paint_ms: summary(toggles.paint), toggle_longest_task_ms: r1(Math.max(0, ...toggleTasks)),
    dom_elements: toggles.nodes,
  };
}

/** The distillation playground's training run (150 steps), its frames timed by the widget (which
 * keeps that clock only on a page opened with `?bench`). */
async function distillRun(browser, origin, throttle) {
  const { context, page } = await newPage(browser, throttle, { cache: true, network: false });
  await page.goto(origin + '/model-selection/?bench');
  const card = page.locator('section.widget[data-widget="distillation"]');
  await card.waitFor({ timeout: 60_000 });
  await card.scrollIntoViewIfNeeded();
  await page.evaluate(() => {
    window.__gaps = [];
    let last = performance.now();
    const tick = (t) => { window.__gaps.push(t - last); last = t; window.__raf = requestAnimationFrame(tick); };
    window.__raf = requestAnimationFrame(tick);
  });
  const lt0 = await page.evaluate(() => window.__bench.longtasks.length);
  await card.getByTestId('distill-train').click();
  const step = card.getByTestId('distill-train-step');
  await page.waitForFunction((el) => el.dataset.running === 'false' && Number(el.dataset.frames) > 0, await step.elementHandle(), { timeout: 120_000 });
  const gaps = await page.evaluate(() => { cancelAnimationFrame(window.__raf); return window.__gaps.slice(2); });
  const lt = await page.evaluate((from) => window.__bench.longtasks.slice(from), lt0);
  const res = {
    throttle,
    frames: Number(await step.getAttribute('data-frames')),
    longest_frame_work_ms: Number(await step.getAttribute('data-longest-frame-ms')),
    p95_frame_work_ms: Number(await step.getAttribute('data-p95-frame-ms')),
    longest_frame_gap_ms: r1(Math.max(...gaps)),
    long_tasks: lt.length, longest_task_ms: Math.max(0, ...lt),
  };
  await context.close();
  return res;
}

// ---------------------------------------------------------------- the measuring lab
/** One full run of the measuring lab (its page, /measure-it-yourself/): its table as the page shows it, the
 * targets' ratios (issue 53) and the page's long tasks while the worker ran. */
async function labRun(browser, origin) {
  const { context, page } = await newPage(browser, 1, { cache: true, network: false });
  await page.goto(origin + '/measure-it-yourself/');
  const card = page.locator('section.widget[data-widget="decode-lab"]');
  await card.waitFor({ timeout: 60_000 });
  await card.scrollIntoViewIfNeeded();
  const lt0 = await page.evaluate(() => window.__bench.longtasks.length);
  await card.getByTestId('lm-start').click();
  await page.waitForFunction((el) => /^100% · Done/.test(el.textContent), await card.getByTestId('lm-progress').elementHandle(), { timeout: 600_000 });
  const lt = await page.evaluate((from) => window.__bench.longtasks.slice(from), lt0);
  const text = (id) => card.getByTestId(id).textContent();
  const rows = await card.locator('[data-testid="lm-row"]').evaluateAll((els) => els.map((el) => {
    const cell = (id) => { const c = el.querySelector(`[data-testid="${id}"]`); return c ? parseFloat(c.textContent.replace(/,/g, '')) : null; };
    return { model: el.dataset.model, precision: el.dataset.precision, mb_per_token: cell('lm-mb-per-token'), ceiling_tps: cell('lm-ceiling'),
      tps: cell('lm-tps'), share_pct: cell('lm-share'), loss_bits: cell('lm-loss'), agreement_pct: cell('lm-agreement') };
  }));
  const tps = (m, p) => rows.find((r) => r.model === m && r.precision === p)?.tps;
  const res = {
    memory: await text('lm-bandwidth-out'), cache: await text('lm-cache-bandwidth-out'), rows,
    m_int8_over_f32: r1(tps('m', 'int8') / tps('m', 'f32') * 100) / 100,
    m_int4_over_int8: r1(tps('m', 'int4') / tps('m', 'int8') * 100) / 100,
    messages: await card.getByTestId('lm-messages').textContent(),
    long_tasks: lt.length, longest_task_ms: Math.max(0, ...lt),
  };
  await context.close();
  return res;
}

// ---------------------------------------------------------------- in-app navigation
/** The title page loaded and idle, then a click in its contents to lesson `to`: the time from
 * the click until every widget place of that lesson holds its widget, `RUNS` times. */
async function inAppNav(browser, origin, to, throttle) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const { context, page } = await newPage(browser, throttle);
    await page.goto(origin + '/', { waitUntil: 'load' });
    await until(page, () => window.__bench.app !== null);
    await page.waitForLoadState('networkidle');
    times.push(await page.evaluate((to) => new Promise((done, fail) => {
      const link = [...document.querySelectorAll('nav#toc a')].find((a) => new URL(a.href).pathname.endsWith(to));
      if (!link) { fail(new Error(`no link to ${to} in the contents`)); return; }
      const before = new Set(document.querySelectorAll('[data-widget-slot]'));
      const t0 = performance.now();
      const give_up = setTimeout(() => fail(new Error(`the widgets of ${to} did not appear in 30 s`)), 30_000);
      const check = () => {
        const slots = [...document.querySelectorAll('[data-widget-slot]')];
        const fresh = slots.length > 0 && slots.every((s) => !before.has(s));
        if (fresh && location.pathname.endsWith(to) && slots.every((s) => s.querySelector('section.widget[data-widget]'))) {
          clearTimeout(give_up);
          done(performance.now() - t0);
        } else requestAnimationFrame(check);
      };
      link.click();
      check();
    }), to));
    await context.close();
  }
  return { path: to, throttle, widgets_ready_ms: summary(times) };
}

// ---------------------------------------------------------------- Lighthouse
function lighthouse(url, preset) {
  const cli = join(here, 'node_modules', 'lighthouse', 'cli', 'index.js');
  const args = [cli, url, '--quiet', '--output=json', '--output-path=stdout',
    '--only-categories=performance,accessibility', `--chrome-flags=--headless=new ${[...FLAGS, ...BROWSER_ARGS].join(' ')}`];
  if (preset === 'desktop') args.push('--preset=desktop');
  return new Promise((res, rej) => {
    const p = spawn(process.execPath, args, { env: { ...process.env, CHROME_PATH: CHROMIUM } });
    let stdout = ''; let stderr = '';
    p.stdout.on('data', (d) => { stdout += d; });
    p.stderr.on('data', (d) => { stderr += d; });
    p.on('close', (code) => {
      if (code !== 0) return rej(new Error(`lighthouse ${url} ${preset}: exit ${code}\n${stderr.slice(-2000)}`));
      const lhr = JSON.parse(stdout);
      const a = lhr.audits;
      const failing = Object.values(lhr.categories.accessibility.auditRefs)
        .filter((ref) => ref.weight > 0 && a[ref.id].score !== null && a[ref.id].score < 1).map((ref) => ref.id);
      res({
        path: new URL(url).pathname, preset,
        performance: Math.round(lhr.categories.performance.score * 100),
        accessibility: Math.round(lhr.categories.accessibility.score * 100),
        fcp_ms: Math.round(a['first-contentful-paint'].numericValue),
        lcp_ms: Math.round(a['largest-contentful-paint'].numericValue),
        tbt_ms: Math.round(a['total-blocking-time'].numericValue),
        cls: Math.round(a['cumulative-layout-shift'].numericValue * 1000) / 1000,
        si_ms: Math.round(a['speed-index'].numericValue),
        accessibility_failing: failing,
        // What blocks the main thread (simulated at the preset's CPU slowdown), longest first.
        long_tasks: (a['long-tasks'].details?.items ?? []).slice(0, 6).map((t) => ({ url: t.url.replace(/^https?:\/\/[^/]+/, ''), ms: Math.round(t.duration), at: Math.round(t.startTime) })),
      });
    });
  });
}

/** `LIGHTHOUSE_RUNS` runs of one page: the median run (by performance score, then TBT), with
 * every run's score and TBT beside it. One run on a shared VM is noise more than measurement. */
async function lighthouseMedian(url, preset) {
  const runs = [];
  for (let i = 0; i < LIGHTHOUSE_RUNS; i++) runs.push(await lighthouse(url, preset));
  const byScore = [...runs].sort((a, b) => a.performance - b.performance || b.tbt_ms - a.tbt_ms);
  const median = byScore[Math.floor((byScore.length - 1) / 2)];
  return { ...median, runs: runs.length, performance_runs: runs.map((r) => r.performance), tbt_runs_ms: runs.map((r) => r.tbt_ms) };
}

// ---------------------------------------------------------------- output
function table(headers, rows) {
  const w = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(w[i]) : String(c).padStart(w[i]))).join('  ');
  return [line(headers), w.map((n) => '-'.repeat(n)).join('  '), ...rows.map(line)].join('\n');
}
const ms = (s) => (s ? `${r1(s.median)} / ${r1(s.p99)}` : '–');

function report(res) {
  const lines = [];
  lines.push(`Benchmark of ${res.dist} (${res.commit}) on ${res.machine.cpu} × ${res.machine.cores}, ${res.machine.chromium}`);
  if (res.settings.browser_args?.length) lines.push(`Chromium started with ${res.settings.browser_args.join(' ')}`);
  if (res.settings.network && res.settings.network !== 'none') lines.push(`Cold loads and in-app moves on the ${res.settings.network} network (--network)`);
  lines.push(`${res.settings.runs} cold loads per row (fresh profile, cache disabled, service worker blocked); times are median / p99 in ms.\n`);
  if (res.loads.length) lines.push('Cold loads', table(['page', 'CPU', 'html br', 'css br', 'js br', 'wasm br', 'other br', 'total br KB', 'total raw KB', 'FCP', 'LCP', 'shell ready', 'widget ready', 'all widgets', 'longest task', 'JS heap MB'],
    res.loads.map((l) => [l.path, `${l.throttle}×`, ...['html', 'css', 'js', 'wasm', 'other'].map((k) => l.transfer[k]?.br_kb ?? 0),
      l.total_br_kb, l.total_raw_kb, ms(l.fcp_ms), ms(l.lcp_ms), ms(l.app_interactive_ms), ms(l.widget_interactive_ms), ms(l.all_widgets_interactive_ms), ms(l.longest_task_ms), r1(l.js_heap_mb.median)])));
  if (res.nav?.length) lines.push('\nIn-app move from the title page: click in the contents → every widget of the lesson mounted', table(['lesson', 'CPU', 'widgets ready'],
    res.nav.map((n) => [n.path, `${n.throttle}×`, ms(n.widgets_ready_ms)])));
  if (res.inputs.length) lines.push(`\nInput → paint, ${res.settings.changes} changes per widget. update: the handler and the effects it set off; paint: update + the next`,
    `frame's style, layout and paint (no vsync wait); next frame: input → that frame starts; two frames: input → two rAFs.`, table(['widget', 'CPU', 'update', 'paint', 'next frame', 'two frames', 'long tasks', 'longest task'],
    res.inputs.map((x) => [x.widget, `${x.throttle}×`, ms(x.update_ms), ms(x.paint_ms), ms(x.next_frame_ms), ms(x.two_frames_ms), x.long_tasks, r1(x.longest_task_ms)])));
  for (const l of res.lab || []) {
    lines.push(`\nMeasuring lab, full run: ${l.memory}; ${l.cache}; M int8/f32 ${l.m_int8_over_f32}×, int4/int8 ${l.m_int4_over_int8}×; ${l.long_tasks} long tasks on the page (longest ${r1(l.longest_task_ms)} ms)`,
      table(['model', 'weights', 'MB/token', 'ceiling tok/s', 'tok/s', '% of ceiling', 'bits/char', 'agreement %'],
        l.rows.map((r) => [r.model, r.precision, r.mb_per_token, r.ceiling_tps, r.tps, r.share_pct, r.loss_bits ?? '', r.agreement_pct ?? ''])));
    if (l.messages) lines.push(l.messages);
  }
  if (res.distill.length) lines.push('\nDistillation training run (150 steps)', table(['CPU', 'longest frame work', 'p95 frame work', 'longest frame gap', 'long tasks', 'longest task'],
    res.distill.map((d) => [`${d.throttle}×`, d.longest_frame_work_ms, d.p95_frame_work_ms, d.longest_frame_gap_ms, d.long_tasks, r1(d.longest_task_ms)])));
  if (res.lighthouse.length) {
    lines.push('\nLighthouse 12 (performance / accessibility; lab metrics in ms)');
    lines.push(table(['page', 'preset', 'perf', 'a11y', 'FCP', 'LCP', 'TBT', 'CLS', 'SI', 'a11y audits failing'],
      res.lighthouse.map((l) => [l.path, l.preset, l.performance, l.accessibility, l.fcp_ms, l.lcp_ms, l.tbt_ms, l.cls, l.si_ms, l.accessibility_failing.join(' ') || '–'])));
  }
  return lines.join('\n');
}

function flatten(obj, prefix = '', acc = {}) {
  if (Array.isArray(obj)) {
    for (const x of obj) {
      const id = [x.path, x.widget, x.cases && `${x.cases} cases`, x.preset, x.throttle && `${x.throttle}x`].filter(Boolean).join(' ');
      flatten(x, `${prefix}[${id}].`, acc);
    }
  } else if (obj && typeof obj === 'object') {
    for (const [k, v] of Object.entries(obj)) flatten(v, `${prefix}${k}.`, acc);
  } else if (typeof obj === 'number') acc[prefix.slice(0, -1)] = obj;
  return acc;
}

function compare(oldFile, newFile) {
  const a = JSON.parse(readFileSync(oldFile, 'utf8'));
  const b = JSON.parse(readFileSync(newFile, 'utf8'));
  // The lab's rows by model and precision: tok/s and share of the ceiling.
  const lab = (r) => Object.fromEntries((r.lab?.[0]?.rows ?? []).flatMap((x) => [
    [`lab.${x.model}.${x.precision}.tok_s`, x.tps], [`lab.${x.model}.${x.precision}.share_pct`, x.share_pct]]));
  const fa = { ...flatten({ loads: a.loads, nav: a.nav, inputs: a.inputs, distill: a.distill, eval_scale: a.eval_scale, lighthouse: a.lighthouse }), ...lab(a) };
  const fb = { ...flatten({ loads: b.loads, nav: b.nav, inputs: b.inputs, distill: b.distill, eval_scale: b.eval_scale, lighthouse: b.lighthouse }), ...lab(b) };
  const rows = Object.keys(fb).filter((k) => k in fa && !/\.(n|runs|changes|throttle|frames)$/.test(k))
    .map((k) => [k, r1(fa[k]), r1(fb[k]), fa[k] === 0 ? (fb[k] === 0 ? '1.00' : '∞') : (fb[k] / fa[k]).toFixed(2)]);
  const with_ = (r) => (r.settings?.browser_args?.length ? `, Chromium with ${r.settings.browser_args.join(' ')}` : '')
    + (r.settings?.network && r.settings.network !== 'none' ? `, ${r.settings.network} network` : '');
  console.log(`old: ${oldFile} (${a.commit}, ${a.date}${with_(a)})\nnew: ${newFile} (${b.commit}, ${b.date}${with_(b)})\n`);
  console.log(table(['metric', 'old', 'new', 'new/old'], rows));
}

// ---------------------------------------------------------------- main
const git = (cmd) => { try { return execSync(`git ${cmd}`, { cwd: root }).toString().trim(); } catch { return 'unknown'; } };
const { origin, close } = await serve(dist);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...FLAGS, ...BROWSER_ARGS] });
const machine = {
  cpu: os.cpus()[0]?.model.trim(), cores: os.cpus().length, memory_gb: r1(os.totalmem() / 2 ** 30),
  os: `${os.type()} ${os.release()} ${os.arch()}`, node: process.version, chromium: `Chromium ${browser.version()}`,
};
const pages = lessonPaths();
const first = pages[0];
const log = (s) => process.stderr.write(s + '\n');
log(`serving ${dist} at ${origin}; lessons: ${pages.join(' ')}`);

const res = {
  date: new Date().toISOString(), commit: git('rev-parse --short HEAD') + (git('status --porcelain') ? '+changes' : ''),
  dist: dist.replace(root + '/', ''), machine,
  settings: { runs: RUNS, changes: CHANGES, throttles: THROTTLES, server: 'bench/serve.mjs (brotli)', browser_args: BROWSER_ARGS, network: NETWORK },
  loads: [], nav: [], inputs: [], distill: [], eval_scale: [], lighthouse: [], lab: [],
};
try {
  for (const t of parts.has('loads') ? THROTTLES : []) {
    for (const path of LOADS === 'first' ? ['/', first] : LOADS.split(',')) {
      log(`cold loads of ${path} at ${t}× CPU…`);
      res.loads.push(await loads(browser, origin, path, t));
    }
  }
  for (const t of parts.has('nav') ? THROTTLES : []) {
    for (const to of NAV_TO) {
      log(`in-app move from / to ${to} at ${t}× CPU…`);
      res.nav.push(await inAppNav(browser, origin, to, t));
    }
  }
  for (const t of THROTTLES) {
    const timed = WIDGETS.filter((w) => !WIDGET_NAMES.length || WIDGET_NAMES.includes(w.name));
    for (const w of parts.has('inputs') ? timed : []) {
      log(`input → paint: ${w.name} at ${t}× CPU…`);
      res.inputs.push(await inputToPaint(browser, origin, w, t));
    }
    if (!parts.has('distill')) continue;
    log(`distillation training at ${t}× CPU…`);
    res.distill.push(await distillRun(browser, origin, t));
  }
  // The measuring lab's full run, unthrottled (it measures the machine): not in the default parts.
  if (parts.has('lab')) {
    log('measuring lab: a full run…');
    res.lab.push(await labRun(browser, origin));
  }
  // 10: the lesson's own eval, its verdicts pasted, for reference.
  for (const n of parts.has('eval-scale') ? EVAL_CASES : []) {
    log(`mini eval: import and toggles at ${n} cases…`);
    res.eval_scale.push(await evalScale(browser, origin, n, 1));
    log(JSON.stringify(res.eval_scale[res.eval_scale.length - 1]));
  }
  await browser.close();
  if (lighthouseOn) {
    const lhPages = lighthousePages === 'first' ? ['/', first] : lighthousePages === 'all' ? ['/', ...pages] : lighthousePages.split(',');
    for (const preset of LIGHTHOUSE_PRESETS) {
      for (const path of lhPages) {
        log(`Lighthouse ${preset} ${path}…`);
        res.lighthouse.push(await lighthouseMedian(origin + path, preset));
      }
    }
  }
} finally {
  await browser.close().catch(() => {});
  await close();
}
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(res, null, 2) + '\n');
console.log(report(res));
console.log(`\nJSON: ${out.replace(root + '/', '')}`);
