#!/usr/bin/env node
// What a page's load keeps the main thread busy with: its tasks grouped by what posted them, and
// the longest ones with what ran inside. A tool for deciding what to try, like trace.mjs: the
// tracing slows the page, and on the 2-core VMs one load's figures swing by half, so compare
// several loads (--runs) and read the medians.
//
//   node bench/load-tasks.mjs --dist dist --path /model-selection/ [--rate 4] [--runs 3] [--top 8]
//                             [--inside] [--browser-args '--js-flags=--no-wasm-lazy-compilation']
//   node bench/load-tasks.mjs --trace lighthouse-0.trace.json [--top 8] [--inside]
//
// A cold load in a phone-sized window (412 × 823, as Lighthouse's mobile preset), traced with the
// `sequence_manager` category, which names the function that posted each task. Chrome's own work
// shows so: `ExtractFormsAndNotifyPasswordAutofillAgent` (components/autofill) is the autofill
// reading every field of the page once widgets have added theirs, and inside it the style and
// layout it forces. --trace reads a trace saved elsewhere instead, for example by Lighthouse
// (`--save-assets`): it has no poster names, but a long task in which no script ran is the
// browser's own. --inside lists, under each of the last load's longest tasks, the trace events
// that took most of it (summed by name; a script by its file): the navigation's commit
// (`LocalWindowProxy::Initialize`, the page's JavaScript context being made), parsing, style,
// layout and the font lookups inside it (`FontCache::GetFontPlatformData`), a script's call, and
// V8 compiling wasm functions on their first call (`wasm.CompileLazy`). It traces V8's wasm
// category too, which slows each compile: read its shares, not its sums. --browser-args starts
// Chromium with more switches (an experiment's knob, as in bench.mjs; readers run with none).
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { argv, median as middle, opt } from './cli.mjs';
import { serve } from './serve.mjs';

const top = Number(opt('top', 8));
const inside = argv.includes('--inside');
const median = (xs) => middle(xs) ?? 0;
const ms = (us) => us / 1000;
const SCRIPT = new Set(['FunctionCall', 'EvaluateScript', 'v8.callFunction', 'TimerFire', 'FireAnimationFrame', 'RunMicrotasks', 'v8.compile', 'EventDispatch']);

/** The renderer main thread's tasks in `events`, each with its poster and what ran inside. */
function tasksOf(events) {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain'
    && events.some((x) => x.pid === e.pid && x.name === 'ParseHTML'));
  if (!main) throw new Error('no renderer main thread that parsed the page in the trace');
  const xs = events.filter((e) => e.ph === 'X' && e.pid === main.pid && e.tid === main.tid && e.dur > 0)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const tasks = [];
  for (const e of xs) {
    const last = tasks[tasks.length - 1];
    if (last && e.ts < last.end) {
      last.events.push(e);
      if (e.name === 'UpdateLayoutTree') last.style += e.dur;
      else if (e.name === 'Layout') last.layout += e.dur;
      else if (SCRIPT.has(e.name)) last.script = true;
      continue;
    }
    if (e.name !== 'ThreadControllerImpl::RunTask' && e.name !== 'RunTask') continue;
    const poster = e.args?.src_func ? `${e.args.src_func} (${(e.args.src_file ?? '').split('/').slice(-2).join('/')})` : null;
    tasks.push({ ts: e.ts, end: e.ts + e.dur, dur: e.dur, poster, style: 0, layout: 0, script: false, events: [] });
  }
  const t0 = tasks[0]?.ts ?? 0;
  for (const t of tasks) {
    t.at = t.ts - t0;
    t.poster ??= t.script ? '(a task that ran script)' : '(no script ran: the browser\'s own)';
  }
  return tasks;
}

/** What took most of task `t`: its events' time summed by name (nested events count in each). */
function within(t) {
  const by = new Map();
  for (const e of t.events) {
    const url = e.args?.data?.url ?? e.args?.data?.scriptName ?? e.args?.fileName;
    const name = url ? `${e.name} ${String(url).split('/').pop().slice(0, 40)}` : e.name;
    by.set(name, (by.get(name) ?? 0) + e.dur);
  }
  return [...by].sort((a, b) => b[1] - a[1]).slice(0, 6);
}

function longest(tasks) {
  console.log(`  longest tasks: ms, at ms, style + layout ms inside, poster`);
  for (const t of [...tasks].sort((a, b) => b.dur - a.dur).slice(0, top)) {
    console.log(`  ${ms(t.dur).toFixed(0).padStart(6)} ${ms(t.at).toFixed(0).padStart(6)} ${ms(t.style).toFixed(0).padStart(5)} + ${ms(t.layout).toFixed(0).padEnd(5)} ${t.poster}`);
    if (inside) for (const [name, us] of within(t)) console.log(`  ${''.padStart(13)}${ms(us).toFixed(1).padStart(7)}  ${name}`);
  }
}

const file = opt('trace', null);
if (file) {
  const t = JSON.parse(readFileSync(file, 'utf8'));
  const tasks = tasksOf(t.traceEvents ?? t);
  console.log(`${file}: ${tasks.length} tasks, ${ms(tasks.reduce((a, x) => a + x.dur, 0)).toFixed(0)} ms`);
  longest(tasks);
} else {
  const dist = resolve(opt('dist', 'dist'));
  const path = opt('path', '/model-selection/');
  const rate = Math.max(1, Number(opt('rate', 1)));
  const runs = Math.max(1, Number(opt('runs', 3)));
  const { origin, close } = await serve(dist);
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', ...opt('browser-args', '').split(' ').filter(Boolean)],
  });
  try {
    const byPoster = new Map();
    const totals = [];
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 412, height: 823 } });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      if (rate > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      const events = [];
      cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
      const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
      const categories = `devtools.timeline,toplevel,sequence_manager${inside ? ',v8.wasm,fonts' : ''}`;
      await cdp.send('Tracing.start', { categories, transferMode: 'ReportEvents' });
      await page.goto(origin + path);
      await page.waitForFunction(() => [...document.querySelectorAll('[data-widget-slot]')]
        .every((s) => s.querySelector('section.widget[data-widget]')), null, { timeout: 60_000 });
      // Autofill reads the page's fields some 100 ms after the last were added, once the thread is free.
      await page.waitForTimeout(1500 * rate);
      await cdp.send('Tracing.end');
      await done;
      await context.close();
      const tasks = tasksOf(events);
      totals.push(tasks.reduce((a, t) => a + t.dur, 0));
      const mine = new Map();
      for (const t of tasks) {
        const m = mine.get(t.poster) ?? { sum: 0, max: 0, n: 0 };
        mine.set(t.poster, { sum: m.sum + t.dur, max: Math.max(m.max, t.dur), n: m.n + 1 });
      }
      for (const [k, m] of mine) byPoster.set(k, [...(byPoster.get(k) ?? []), m]);
      console.log(`load ${run + 1}: ${tasks.length} tasks, ${ms(totals[run]).toFixed(0)} ms; over 50 ms: ${tasks.filter((t) => t.dur > 50_000).map((t) => ms(t.dur).toFixed(0)).join(' ') || 'none'}`);
      if (run === runs - 1) longest(tasks);
    }
    console.log(`${path} at ${rate}× CPU, ${runs} loads: median ms per load by poster (total, longest task, tasks)`);
    const rows = [...byPoster].map(([k, ls]) => [k, median(ls.map((l) => l.sum).concat(Array(runs - ls.length).fill(0))), median(ls.map((l) => l.max)), median(ls.map((l) => l.n))]);
    for (const [k, sum, max, n] of rows.sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`  ${ms(sum).toFixed(0).padStart(6)} ${ms(max).toFixed(0).padStart(6)} ${String(n).padStart(4)}  ${k}`);
    }
    console.log(`  ${ms(median(totals)).toFixed(0).padStart(6)} in all`);
  } finally {
    await browser.close();
    await close();
  }
}
