#!/usr/bin/env node
// Does code V8 compiles in a worker serve the page too? A check, not a benchmark: it answers the
// question a worker warm-up would rest on (README, "Benchmark", on compiling at first call).
//
//   node bench/compile-share.mjs [--functions 3000] [--runs 3]
//
// Chromium compiles a wasm function the first time it is called (lazy compilation), on the
// thread that calls it; on a lesson that is some 40% of the wasm's time during the load. This
// writes a module of many functions and an export that calls each once, compiles it in the page,
// and times the export's first call there: cold, and after a worker has been sent the same
// compiled module and called the export itself. When the worker's compiling serves the page, the
// page's first call is as quick as a second call.
import { chromium } from 'playwright-core';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, opt } from './cli.mjs';
import { serve } from './serve.mjs';

const FUNCTIONS = Math.max(1, Number(opt('functions', 3000)));
const RUNS = Math.max(1, Number(opt('runs', 3)));

/** `n` as unsigned and signed LEB128. */
const uleb = (n) => { const out = []; do { let b = n & 0x7f; n >>>= 7; if (n) b |= 0x80; out.push(b); } while (n); return out; };
const sleb = (n) => {
  const out = [];
  for (;;) {
    const b = n & 0x7f; n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && (b & 0x40))) { out.push(b); return out; }
    out.push(b | 0x80);
  }
};
const vec = (items) => [...uleb(items.length), ...items.flat()];
const section = (id, bytes) => [id, ...uleb(bytes.length), ...bytes];

/** A module of `n` functions `(i32) -> i32`, each sixty multiply-adds long, and `run`, which calls each in turn. */
function module(n) {
  const body = (code) => { const b = [0x00, ...code, 0x0b]; return [...uleb(b.length), ...b]; };
  const step = (i, k) => [0x20, 0, 0x41, ...sleb(i + 3), 0x6c, 0x41, ...sleb(k), 0x6a, 0x21, 0];
  const work = Array.from({ length: n }, (_, i) => body([...Array.from({ length: 60 }, (_, k) => step(i, k)).flat(), 0x20, 0]));
  const run = body([...Array.from({ length: n }, (_, i) => [0x20, 0, 0x10, ...uleb(i), 0x21, 0]).flat(), 0x20, 0]);
  const name = [...Buffer.from('run')];
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec([[0x60, 1, 0x7f, 1, 0x7f]])),
    ...section(3, vec(Array.from({ length: n + 1 }, () => [0]))),
    ...section(7, vec([[...uleb(name.length), ...name, 0x00, ...uleb(n)]])),
    ...section(10, vec([...work, run])),
  ]);
}

const PAGE = `<!doctype html><meta charset="utf-8"><script type="module">
const mod = await WebAssembly.compile(await (await fetch('m.wasm')).arrayBuffer());
let workerMs = null;
if (location.search === '?worker') {
  const w = new Worker('w.js');
  workerMs = await new Promise((ok) => { w.onmessage = (e) => ok(e.data); w.postMessage(mod); });
}
const { exports } = await WebAssembly.instantiate(mod);
let t = performance.now(); exports.run(1); const first = performance.now() - t;
t = performance.now(); exports.run(2); const second = performance.now() - t;
window.result = { first, second, workerMs };
</script>`;
const WORKER = `onmessage = async (e) => {
  const { exports } = await WebAssembly.instantiate(e.data);
  const t = performance.now(); exports.run(1); postMessage(performance.now() - t);
};`;

const dir = mkdtempSync(join(tmpdir(), 'compile-share-'));
writeFileSync(join(dir, 'm.wasm'), module(FUNCTIONS));
writeFileSync(join(dir, 'index.html'), PAGE);
writeFileSync(join(dir, 'w.js'), WORKER);
const { origin, close } = await serve(dir);
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const rows = { cold: [], worker: [] };
  for (let run = 0; run < RUNS; run++) {
    for (const [kind, query] of [['cold', ''], ['worker', '?worker']]) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${origin}/index.html${query}`);
      await page.waitForFunction(() => window.result, null, { timeout: 60_000 });
      rows[kind].push(await page.evaluate(() => window.result));
      await context.close();
    }
  }
  const ms = (xs) => (median(xs) ?? 0).toFixed(1).padStart(7);
  console.log(`${FUNCTIONS} functions, ${RUNS} loads each: medians in ms`);
  console.log('                       first call   second call   worker\'s first call');
  for (const [kind, rs] of Object.entries(rows)) {
    const label = kind === 'cold' ? 'in the page alone' : 'after the worker';
    console.log(`  ${label.padEnd(20)} ${ms(rs.map((r) => r.first))}       ${ms(rs.map((r) => r.second))}       ${kind === 'worker' ? ms(rs.map((r) => r.workerMs)) : '      –'}`);
  }
} finally {
  await browser.close();
  await close();
  rmSync(dir, { recursive: true, force: true });
}
