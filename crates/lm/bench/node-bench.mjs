// The lab's measurement in Node, on the engine's wasm builds (crates/lm/bench/build.sh first).
//
//   node --experimental-wasm-relaxed-simd crates/lm/bench/node-bench.mjs [--quick] [--no-l] [--no-relaxed]
//
// --quick: M reduced to 2 blocks, no L. --no-relaxed: the simd128 build only.
// Node 20's relaxed SIMD (behind its flag) computes i32x4.relaxed_dot_i8x16_i7x16_add wrongly
// (each lane comes out doubled; Chromium 156 is right), so the relaxed build's self-test fails
// there and its int4 speed is only indicative: crates/lm/bench/browser-bench.mjs measures in
// Chromium.
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { runLab, report } from './lab.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const args = process.argv.slice(2);
const pkg = join(root, 'target', 'lm-pkg');

async function loadEngine(variant) {
  const glue = await import(join(pkg, variant, 'ie_lm.js'));
  glue.initSync({ module: readFileSync(join(pkg, variant, 'ie_lm_bg.wasm')) });
  return glue;
}

const engines = { simd128: await loadEngine('simd128') };
if (!args.includes('--no-relaxed')) engines.relaxed = await loadEngine('relaxed');
const teacherPath = join(root, 'models', 'teacher.ielm');
const haveTeacher = existsSync(teacherPath);
const sizes = args.includes('--quick') ? [['m', 2]] : args.includes('--no-l') ? [['m']] : [['m'], ['l']];
const result = runLab({
  engines,
  teacher: haveTeacher ? readFileSync(teacherPath) : null,
  heldout: haveTeacher ? readFileSync(join(root, 'models', 'heldout.txt'), 'utf8') : '',
  prompt: 'KING.\nNow, good my lord, ',
  sizes,
});
console.log('');
console.log(report(result));
