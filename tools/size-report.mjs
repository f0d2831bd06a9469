#!/usr/bin/env node
// Prints the raw and brotli size of every file a first load of the built site fetches, and
// their total; exits 1 when the total is over the budget.
//   node tools/size-report.mjs [dist] [--budget-kb 250]
// What a first load fetches is read from dist/index.html: every local href/src, and every
// local .js/.wasm/.css path in its inline module script.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

const args = process.argv.slice(2);
const dist = args.find((a) => !a.startsWith('--')) ?? 'dist';
const budgetAt = args.indexOf('--budget-kb');
const budgetKb = budgetAt >= 0 ? Number(args[budgetAt + 1]) : 250;

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const base = (html.match(/<base href="([^"]*)"/) || [, '/'])[1];
const refs = new Set(['index.html']);
for (const m of html.matchAll(/(?:href|src)="([^"#?]+)"/g)) refs.add(m[1]);
for (const m of html.matchAll(/['"]([^'"\s]+\.(?:js|wasm|css))['"]/g)) refs.add(m[1]);

const rows = [];
for (const ref of refs) {
  if (/^[a-z]+:/.test(ref)) continue; // other origins
  const rel = ref.startsWith(base) ? ref.slice(base.length) : ref.replace(/^\.?\//, '');
  const file = join(dist, rel);
  if (!rel || !existsSync(file) || rel.endsWith('/')) continue;
  const body = readFileSync(file);
  const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  rows.push({ file: rel, raw: body.length, br });
}
rows.sort((a, b) => b.br - a.br);
const kb = (n) => (n / 1024).toFixed(1).padStart(8);
console.log(`${'file'.padEnd(48)} ${'raw KB'.padStart(8)} ${'brotli KB'.padStart(9)}`);
for (const r of rows) console.log(`${r.file.padEnd(48)} ${kb(r.raw)} ${kb(r.br).padStart(9)}`);
const total = rows.reduce((a, r) => a + r.br, 0);
const raw = rows.reduce((a, r) => a + r.raw, 0);
console.log(`${'total (first load)'.padEnd(48)} ${kb(raw)} ${kb(total).padStart(9)}   budget ${budgetKb} KB`);
if (total > budgetKb * 1024) {
  console.error(`over budget by ${((total - budgetKb * 1024) / 1024).toFixed(1)} KB`);
  process.exit(1);
}
