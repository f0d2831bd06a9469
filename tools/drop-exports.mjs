#!/usr/bin/env node
// Removes from a wasm-bindgen module the exports nothing on the site calls, and the code only
// they reach (binaryen's wasm-metadce), in place:
//   node tools/drop-exports.mjs FILE_bg.wasm
// An export is a root that no optimizer may remove. Leptos links server functions, whose
// wasm-streams dependency exports three stream classes (`IntoUnderlyingSource`, `…Sink`,
// `…ByteSource`) through wasm-bindgen; this site has no server, so none of them is ever built.
// They and their code are ~4 KB of every module (~1.4 KB brotli). The glue's classes stay in
// the module's script: constructing one is the only way to reach the missing exports.
// Run it before wasm-opt (tools/postbuild.sh), which then optimizes what is left.
import { readFileSync, writeFileSync, rmSync, mkdtempSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

const UNUSED = /^(__wbg_)?intounderlying(bytesource|sink|source)(_|$)/;

const file = process.argv[2];
if (!file) {
  console.error('usage: node tools/drop-exports.mjs FILE.wasm');
  process.exit(2);
}
const names = WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(file))).map((e) => e.name);
const dropped = names.filter((n) => UNUSED.test(n));
if (dropped.length === 0) process.exit(0);
// wasm-metadce's graph: one root reaching every export that stays.
const graph = [
  { name: 'site', root: true, reaches: names.filter((n) => !UNUSED.test(n)).map((n) => `export:${n}`) },
  ...names.map((n) => ({ name: `export:${n}`, export: n })),
];
const dir = mkdtempSync(join(tmpdir(), 'drop-exports-'));
try {
  writeFileSync(join(dir, 'graph.json'), JSON.stringify(graph));
  // It lists what it removed on stdout; the count below says enough.
  // IE_WASM_KEEP_NAMES=1 keeps the functions' names (see tools/wasm-opt-cached.sh).
  const keep = process.env.IE_WASM_KEEP_NAMES === '1' ? ['-g'] : [];
  execFileSync('wasm-metadce', [...keep, '--graph-file', join(dir, 'graph.json'), file, '-o', join(dir, 'out.wasm')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const after = WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(join(dir, 'out.wasm')))).map((e) => e.name);
  if (after.some((n) => UNUSED.test(n)) || after.length !== names.length - dropped.length) {
    throw new Error(`wasm-metadce left ${after.length} of ${names.length} exports in ${file}`);
  }
  writeFileSync(file, readFileSync(join(dir, 'out.wasm')));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
