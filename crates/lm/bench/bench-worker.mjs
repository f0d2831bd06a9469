// A module worker running the lab (lab.mjs) in a browser: the shape the course's worker can
// take. Messages in: {type: 'run', quick, withL}. Messages out: {type: 'log', text} while it
// runs, then {type: 'done', result, report} or {type: 'error', message}.
import { runLab, report } from './lab.mjs';

// A 40-byte module whose one function uses i32x4.relaxed_dot_i8x16_i7x16_add_s: it validates
// only where relaxed SIMD is on, which is how the page picks the build.
const RELAXED_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10,
  19, 1, 17, 0, 65, 0, 253, 15, 65, 0, 253, 15, 65, 0, 253, 17, 253, 147, 2, 11]);

async function engine(variant) {
  const glue = await import(`../../../target/lm-pkg/${variant}/ie_lm.js`);
  await glue.default({ module_or_path: new URL(`../../../target/lm-pkg/${variant}/ie_lm_bg.wasm`, import.meta.url) });
  return glue;
}

self.onmessage = async ({ data }) => {
  try {
    const engines = { simd128: await engine('simd128') };
    const relaxedOk = WebAssembly.validate(RELAXED_PROBE);
    if (relaxedOk) engines.relaxed = await engine('relaxed');
    const log = (text) => self.postMessage({ type: 'log', text });
    log(`relaxed SIMD ${relaxedOk ? 'validates' : 'does not validate'} here`);
    const teacher = new Uint8Array(await (await fetch('../../../models/teacher.ielm')).arrayBuffer());
    const heldout = await (await fetch('../../../models/heldout.txt')).text();
    const sizes = data.quick ? [['m', 2]] : data.withL ? [['m'], ['l']] : [['m']];
    const result = runLab({ engines, teacher, heldout, prompt: 'KING.\nNow, good my lord, ', sizes, log });
    self.postMessage({ type: 'done', result, report: report(result) });
  } catch (e) {
    self.postMessage({ type: 'error', message: String(e?.message ?? e) });
  }
};
