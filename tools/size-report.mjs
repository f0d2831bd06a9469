#!/usr/bin/env node
// Prints the raw and brotli size of every file a first load of the built site fetches, and
// their total; exits 1 when the title page's first load is over the budget, or, with
// --budgets FILE, when any page's is over its own budget there (tools/size-budgets.json).
//   node tools/size-report.mjs [dist] [--budget-kb 250] [--pages] [--budgets FILE]
// What a page's first load fetches is read from its HTML: every local href/src (the stylesheet,
// the scripts, the icon and manifest), the module its start script loads (<meta name="ie-course-app">:
// its script and wasm, the scripts it imports, fetched once though a lesson runs the module twice,
// the shell and its widgets: see js/loader.js), the worker that compiles that wasm first
// (<meta name="ie-course-warmup">), on a page that shows a widget its module's stylesheet
// (<meta name="ie-course-widgets"> data-css), and the modules each script imports. --pages also
// prints the total for every other page.
import { readFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

const args = process.argv.slice(2);
const dist = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a)) ?? 'dist';
const budgetAt = args.indexOf('--budget-kb');
const budgetKb = budgetAt >= 0 ? Number(args[budgetAt + 1]) : 250;
const brotliCache = new Map();
const brotli = (file) => {
  if (!brotliCache.has(file)) {
    const body = readFileSync(file);
    brotliCache.set(file, { raw: body.length, br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length });
  }
  return brotliCache.get(file);
};

function firstLoad(page) {
  const html = readFileSync(join(dist, page), 'utf8');
  const base = (html.match(/<base href="([^"]*)"/) || [, '/'])[1];
  const refs = new Set([page]);
  const meta = (name) => {
    const tag = html.match(new RegExp(`<meta name="${name}"([^>]*)>`));
    if (!tag) return null;
    return Object.fromEntries([...tag[1].matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  };
  for (const m of html.replace(/<meta [^>]*>/g, '').matchAll(/(?:href|src)="([^"#?]+)"/g)) refs.add(m[1]);
  const app = meta('ie-course-app');
  if (app) for (const f of [app.content, app['data-wasm'], ...(app['data-imports'] || '').split(' ')]) if (f) refs.add(f);
  const warmup = meta('ie-course-warmup');
  if (warmup) refs.add(warmup.content);
  const widgets = meta('ie-course-widgets');
  if (widgets && html.includes('class="widget-slot"')) refs.add(widgets['data-css']);
  const rows = [];
  const seen = new Set();
  const add = (rel) => {
    const file = join(dist, rel);
    if (!rel || seen.has(rel) || !existsSync(file) || !statSync(file).isFile()) return;
    seen.add(rel);
    rows.push({ file: rel, ...brotli(file) });
    // The modules a script imports (wasm-bindgen's snippets) load with it.
    if (rel.endsWith('.js')) {
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+\.js)['"]/g)) {
        add(join(dirname(rel), m[1]).replace(/^\.\//, ''));
      }
    }
  };
  for (const ref of refs) {
    if (/^[a-z]+:/.test(ref) || ref.endsWith('/')) continue; // other origins, other pages
    add(ref.startsWith(base) ? ref.slice(base.length) : ref.replace(/^\.?\//, ''));
  }
  rows.sort((a, b) => b.br - a.br);
  return rows;
}

const kb = (n) => (n / 1024).toFixed(1);
const rows = firstLoad('index.html');
console.log(`First load of the title page (${dist}/index.html):`);
console.log(`${'file'.padEnd(64)} ${'raw KB'.padStart(8)} ${'brotli KB'.padStart(9)}`);
for (const r of rows) console.log(`${r.file.padEnd(64)} ${kb(r.raw).padStart(8)} ${kb(r.br).padStart(9)}`);
const total = rows.reduce((a, r) => a + r.br, 0);
const raw = rows.reduce((a, r) => a + r.raw, 0);
console.log(`${'total (first load)'.padEnd(64)} ${kb(raw).padStart(8)} ${kb(total).padStart(9)}   budget ${budgetKb} KB`);

const budgetsAt = args.indexOf('--budgets');
const budgets = budgetsAt >= 0 ? JSON.parse(readFileSync(args[budgetsAt + 1], 'utf8')) : null;
const over = [];
if (total > budgetKb * 1024) over.push(`the title page is over its budget by ${kb(total - budgetKb * 1024)} KB`);
if (args.includes('--pages') || budgets) {
  console.log('\nFirst load of each page (brotli KB):');
  for (const dir of readdirSync(dist).sort()) {
    const page = join(dir, 'index.html');
    if (!existsSync(join(dist, page))) continue;
    const r = firstLoad(page);
    const t = r.reduce((a, x) => a + x.br, 0);
    const module = r.find((x) => /(^|\/)ie-widgets-[^/]*_bg\.wasm$/.test(x.file));
    const widgets = module ? ` with ${module.file.replace(/^.*\//, '').replace(/-[0-9a-f]+_bg\.wasm$/, '')}` : '';
    const budget = budgets?.pages?.[dir];
    const note = budget === undefined ? '' : `   budget ${budget}`;
    console.log(`  ${dir.padEnd(28)} ${kb(t).padStart(7)}${note}${widgets}`);
    if (budgets && budget === undefined) over.push(`${dir} has no budget in ${args[budgetsAt + 1]}`);
    if (budget !== undefined && t > budget * 1024) over.push(`${dir} is over its budget by ${kb(t - budget * 1024)} KB`);
  }
}
if (over.length) {
  for (const o of over) console.error(o);
  process.exit(1);
}
