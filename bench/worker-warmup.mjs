#!/usr/bin/env node
// A trial of compiling the shell's wasm in a worker before the page starts it, on a copy of a
// built site's title page: not a feature of the site yet (README, "Benchmark", on compiling at
// first call). A check to decide from, like compile-share.mjs.
//
//   node bench/worker-warmup.mjs [--dist dist] [--runs 4]
//
// The copy's start script compiles the shell's wasm, sends the compiled module to a worker that
// runs the shell's whole start against stand-in DOM objects (each property a stand-in, except
// those a start reads as text, numbers or "no node"), waits for it (two seconds at most), then
// starts the shell in the page as the site does. The code the worker compiled is compiled for the
// page too. Printed: the time the page's own start took, alone and after the worker, and the
// worker's. The copy drops the page's CSP (its start script's hash changes).
import { chromium } from 'playwright-core';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median, opt } from './cli.mjs';
import { serve } from './serve.mjs';

const dist = resolve(opt('dist', 'dist'));
const RUNS = Math.max(1, Number(opt('runs', 4)));

const WORKER = `
const NONE = new Set(['firstChild', 'lastChild', 'nextSibling', 'previousSibling', 'parentNode', 'parentElement',
  'firstElementChild', 'nextElementSibling', 'then', 'activeElement']);
const handler = {
  get(t, k) {
    if (k === Symbol.toPrimitive) return () => '';
    if (typeof k === 'symbol') return undefined;
    if (k === 'length' || k === 'nodeType') return 0;
    if (k === 'baseURI' || k === 'href' || k === 'URL') return self.location.origin + '/';
    if (k === 'pathname') return '/';
    if (['search', 'hash', 'textContent', 'value', 'tagName', 'localName'].includes(k)) return '';
    if (k === 'location') return self.location;
    if (k === 'querySelectorAll' || k === 'getElementsByTagName') return () => [];
    if (['getElementById', 'querySelector', 'closest', 'getItem', 'matches'].includes(k)) return () => null;
    if (NONE.has(k)) return null;
    if (k in t) return t[k];
    return stand();
  },
  apply: () => stand(),
  construct: () => stand(),
  set(t, k, v) { t[k] = v; return true; },
  has: () => true,
};
function stand() { return new Proxy(function () {}, handler); }
for (const name of ['Window', 'Document', 'Node', 'Element', 'HTMLElement', 'HTMLAnchorElement', 'HTMLInputElement',
  'HTMLTextAreaElement', 'HTMLSelectElement', 'HTMLDialogElement', 'CustomEvent', 'KeyboardEvent', 'MouseEvent', 'ShadowRoot']) {
  self[name] = class { static [Symbol.hasInstance](x) { return x === self || typeof x === 'function'; } };
}
Object.assign(self, { window: self, document: stand(), localStorage: stand(), sessionStorage: stand(), history: stand(),
  matchMedia: () => stand(), getComputedStyle: () => stand(), requestAnimationFrame: () => 0, innerHeight: 800,
  innerWidth: 400, fetch: () => new Promise(() => {}) });
onmessage = async (e) => {
  const t0 = performance.now();
  try {
    const glue = await import(e.data.glue);
    await glue.default({ module_or_path: e.data.module });
    postMessage({ ms: performance.now() - t0 });
  } catch (err) {
    postMessage({ ms: performance.now() - t0, error: String((err && err.message) || err) });
  }
};`;

const dir = mkdtempSync(join(tmpdir(), 'worker-warmup-'));
cpSync(dist, dir, { recursive: true });
const page = join(dir, 'index.html');
let html = readFileSync(page, 'utf8').replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '');
const start = /import\("([^"]+\.js)"\)\.then\(\(m\) => m\.default\(\{ module_or_path: "([^"]+\.wasm)" \}\)\)/;
const found = html.match(start);
if (!found) throw new Error(`${page}: no title-page start line this trial knows`);
const [, js, wasm] = found;
html = html.replace(start, `window.ieCourseCompile(at(${JSON.stringify(wasm)})).then(async (module) => {
    if (location.search === "?worker") {
      const w = new Worker("/warmup-trial.js", { type: "module" });
      window.trialWorker = await Promise.race([
        new Promise((ok) => { w.onmessage = (e) => ok(e.data); w.postMessage({ module, glue: at(${JSON.stringify(js)}) }); }),
        new Promise((ok) => setTimeout(() => ok({ error: "timed out" }), 2000))]);
      w.terminate();
    }
    const m = await import(${JSON.stringify(js)});
    const t = performance.now();
    await m.default({ module_or_path: module });
    window.trialStart = performance.now() - t;
  })`);
writeFileSync(page, html);
writeFileSync(join(dir, 'warmup-trial.js'), WORKER);

const { origin, close } = await serve(dir);
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const rows = { alone: [], worker: [] };
  for (let run = 0; run < RUNS; run++) {
    for (const [kind, query] of [['alone', ''], ['worker', '?worker']]) {
      const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 412, height: 823 } });
      const p = await context.newPage();
      await p.goto(`${origin}/${query}`);
      await p.waitForFunction(() => window.trialStart !== undefined, null, { timeout: 30_000 });
      const r = await p.evaluate(() => ({ start: window.trialStart, worker: window.trialWorker, shell: !!document.querySelector('[data-testid="menu-button"]') }));
      if (!r.shell) throw new Error('the shell did not start');
      if (r.worker?.error) console.log(`  the worker stopped: ${r.worker.error}`);
      rows[kind].push(r);
      await context.close();
    }
  }
  const ms = (xs) => (median(xs) ?? 0).toFixed(1);
  console.log(`title page, ${RUNS} cold loads each, unthrottled: the page's start (the shell's wasm) in ms`);
  console.log(`  alone:              median ${ms(rows.alone.map((r) => r.start))}  (${rows.alone.map((r) => r.start.toFixed(1)).join(', ')})`);
  console.log(`  after the worker:   median ${ms(rows.worker.map((r) => r.start))}  (${rows.worker.map((r) => r.start.toFixed(1)).join(', ')})`);
  console.log(`  the worker's run:   median ${ms(rows.worker.map((r) => r.worker?.ms ?? 0))}`);
} finally {
  await browser.close();
  await close();
  rmSync(dir, { recursive: true, force: true });
}
