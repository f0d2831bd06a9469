#!/usr/bin/env node
// Where a widget's edits spend the main thread: one of the benchmark's widgets (bench/widgets.mjs)
// changed as the benchmark changes it, under a Chromium trace, and the median change's
// main-thread time split by what the browser was doing (self time of its trace events): script,
// style, layout, pre-paint, paint, layerize, and the rest (task time no finer event covers,
// commits, garbage collection). A tool for deciding what to try, not a benchmark: the tracing
// itself slows the page, so compare its figures only with each other. Unthrottled (the default)
// they repeat within about 20% on the 2-core VMs; at --rate 4 they swing by more than the
// effects sought.
//
//   node bench/trace.mjs --dist dist --widget 'mini eval' [--changes 60] [--rate 1]
//                        [--values 'SELECT 1,SELECT 2'] [--css '.eval-diffs{display:none}'] [--names]
//                        [--tree 20] [--categories blink,cc,toplevel,sequence_manager]
//
// --values replaces the widget's own cycle (an empty item: the field's first value); --css adds
// a stylesheet to the page before the changes, to see what a style would save before writing it;
// --names also lists the trace events themselves, each with its median own time per change;
// --tree K prints change K's events (0.2 ms or longer) as a tree, each task with the function
// that posted it; --categories adds trace categories (with `sequence_manager`, a task's poster
// is named, which is how the browser's own autofill work after each key was found).
import { chromium } from 'playwright-core';
import { resolve } from 'node:path';
import { argv, median, opt } from './cli.mjs';
import { serve } from './serve.mjs';
import { WIDGETS } from './widgets.mjs';

const dist = resolve(opt('dist', 'dist'));
const name = opt('widget', '');
const w = WIDGETS.find((x) => x.name === name);
if (!w) throw new Error(`--widget: one of ${WIDGETS.map((x) => `'${x.name}'`).join(', ')}`);
const changes = Math.max(4, Number(opt('changes', 60)));
const rate = Math.max(1, Number(opt('rate', 1)));
const css = opt('css', '');
const values = opt('values', null)?.split(',').map((v) => v || null) ?? w.values;
const names = argv.includes('--names');
const tree = opt('tree', null);
const extraCategories = opt('categories', '');

// What each trace event's own time counts as.
const KIND = {
  EventDispatch: 'script', FunctionCall: 'script', FireAnimationFrame: 'script', TimerFire: 'script',
  RunMicrotasks: 'script', 'v8.callFunction': 'script', 'wasm.CompileLazy': 'script', 'v8.run': 'script',
  UpdateLayoutTree: 'style', Layout: 'layout', PrePaint: 'pre-paint', Paint: 'paint', Layerize: 'layerize',
};
const KINDS = ['script', 'style', 'layout', 'pre-paint', 'paint', 'layerize', 'other'];

/** Makes `changes` changes to widget `w` in `page`, two animation frames apart. */
function change(page, w, values, changes) {
  return page.evaluate(async ({ w, values, changes }) => {
    const field = document.querySelectorAll(`section.widget[data-widget="${w.widget}"] ${w.field}`)[w.nth ?? 0];
    if (!field) throw new Error(`${w.name}: no field ${w.field}`);
    const original = (window.__traceOriginal ??= field.value);
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    for (let i = 0; i < changes; i++) {
      performance.mark('trace-change');
      if (w.keys) {
        field.dispatchEvent(new KeyboardEvent('keydown', { key: w.keys[i % w.keys.length], bubbles: true, cancelable: true }));
      } else {
        const v = values[i % values.length];
        field.value = v === null ? original : v;
        field.dispatchEvent(new Event('input', { bubbles: true }));
      }
      await frame();
      await frame();
    }
  }, { w, values, changes });
}

const { origin, close } = await serve(dist);
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await page.goto(origin + w.path);
  if (css) await page.addStyleTag({ content: css });
  const card = page.locator(`section.widget[data-widget="${w.widget}"]`);
  await card.waitFor({ timeout: 60_000 });
  await card.scrollIntoViewIfNeeded();
  // Every widget of the page mounted, and a moment more: the page is idle before the changes.
  await page.waitForFunction(() => [...document.querySelectorAll('[data-widget-slot]')]
    .every((s) => s.querySelector('section.widget[data-widget]')), null, { timeout: 60_000 });
  await page.waitForTimeout(1000);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  // One round of changes first, untraced: the code they run is compiled on its first call, and
  // that once-a-visit cost would otherwise stand in the figures of every change.
  await change(page, w, values, w.keys ? w.keys.length : values.length);
  const events = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', {
    categories: ['devtools.timeline,disabled-by-default-devtools.timeline,v8.wasm,blink.user_timing', extraCategories].filter(Boolean).join(','),
    transferMode: 'ReportEvents',
  });
  await change(page, w, values, changes);
  await cdp.send('Tracing.end');
  await done;

  // The renderer's main thread, its complete events in order, each one's time less its children's.
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) throw new Error('no renderer main thread in the trace');
  const xs = events
    .filter((e) => e.ph === 'X' && e.pid === main.pid && e.tid === main.tid && e.dur > 0)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  // Each change's time: from its mark to the next (the last one: to the end of the trace).
  const starts = events.filter((e) => e.name === 'trace-change').map((e) => e.ts).sort((a, b) => a - b);
  if (starts.length !== changes) throw new Error(`${starts.length} change marks in the trace, not ${changes}`);
  const per = starts.map(() => Object.fromEntries(KINDS.map((k) => [k, 0])));
  const byName = starts.map(() => new Map());
  const open = [];
  const own = new Map(xs.map((e) => [e, e.dur]));
  for (const e of xs) {
    while (open.length && open[open.length - 1].ts + open[open.length - 1].dur <= e.ts) open.pop();
    if (open.length) own.set(open[open.length - 1], own.get(open[open.length - 1]) - e.dur);
    open.push(e);
  }
  for (const [e, us] of own) {
    let i = starts.length - 1;
    while (i >= 0 && starts[i] > e.ts) i--;
    if (i < 0) continue;
    per[i][KIND[e.name] ?? 'other'] += Math.max(0, us) / 1000;
    byName[i].set(e.name, (byName[i].get(e.name) ?? 0) + Math.max(0, us) / 1000);
  }
  if (tree !== null) {
    const k = Number(tree);
    const [from, to] = [starts[k], starts[k + 1] ?? Infinity];
    const ends = [];
    console.log(`change ${k}'s events: start ms after the change, name, ms (own ms), poster`);
    for (const e of xs) {
      if (e.ts < from || e.ts >= to) continue;
      while (ends.length && ends[ends.length - 1] <= e.ts) ends.pop();
      if (e.dur >= 200) {
        const poster = e.args?.src_func ? ` ${e.args.src_func} (${e.args.src_file})` : '';
        console.log(`${'  '.repeat(ends.length)}${((e.ts - from) / 1000).toFixed(1)} ${e.name} ${(e.dur / 1000).toFixed(2)} (${(own.get(e) / 1000).toFixed(2)})${poster}`);
      }
      ends.push(e.ts + e.dur);
    }
  }
  console.log(`${w.name}: ${changes} changes at ${rate}× CPU${css ? `, with ${css}` : ''}; main-thread ms per change (median)`);
  for (const k of KINDS) console.log(`  ${k.padEnd(10)} ${median(per.map((c) => c[k])).toFixed(1).padStart(7)}`);
  console.log(`  ${'total'.padEnd(10)} ${median(per.map((c) => KINDS.reduce((a, k) => a + c[k], 0))).toFixed(1).padStart(7)}`);
  if (names) {
    const all = new Set(byName.flatMap((m) => [...m.keys()]));
    const rows = [...all].map((n) => [n, median(byName.map((m) => m.get(n) ?? 0))]).filter(([, ms]) => ms >= 0.1);
    console.log('trace events, median own ms per change:');
    for (const [n, ms] of rows.sort((a, b) => b[1] - a[1])) console.log(`  ${n.padEnd(28)} ${ms.toFixed(1).padStart(7)}  ${KIND[n] ?? 'other'}`);
  }
} finally {
  await browser.close();
  await close();
}
