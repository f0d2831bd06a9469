// The lab's measurements, for any JavaScript host (Node, a page, a worker): give it the engine
// module(s) already initialised and it measures read bandwidth and decode speed, timing with
// performance.now(). The engine's calls are time-free; all timing is here.
//
// Timing rule (issue 53): a warm-up, then three windows of at least 200 ms; the median window.

export const WINDOW_MS = 200;

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Runs work(n) in growing batches until a window of WINDOW_MS has passed; three windows.
// measure() is read before and after each window.
export function timeWindows(work, measure) {
  const results = [];
  let batch = 1;
  for (let w = 0; w < 3; w++) {
    const before = measure();
    const t0 = performance.now();
    let elapsed = 0;
    while (elapsed < WINDOW_MS) {
      work(batch);
      elapsed = performance.now() - t0;
      if (elapsed < WINDOW_MS / 8) batch *= 2;
    }
    results.push({ seconds: elapsed / 1000, before, after: measure() });
  }
  return results;
}

// Read bandwidth in GB/s over a buffer of `bytes` (256 MiB: main memory; 1 MiB: cache).
export function bandwidth(engine, bytes) {
  const buf = new engine.LmReadBuffer(bytes);
  try {
    buf.read(); // warm-up: pages touched, code compiled
    let read = 0;
    const windows = timeWindows(
      (n) => {
        for (let i = 0; i < n; i++) read += buf.read();
      },
      () => read,
    );
    return median(windows.map((w) => (w.after - w.before) / w.seconds / 1e9));
  } finally {
    buf.free();
  }
}

// Decode speed of a model: tokens/s and the bytes each token read (weights + KV cache at the
// positions the median window decoded).
export function decodeSpeed(model) {
  model.decode(8); // warm-up
  const windows = timeWindows(
    (n) => model.decode(n),
    () => ({ tokens: model.tokens_fed(), bytes: model.bytes_read() }),
  );
  const rates = windows.map((w) => ({
    tps: (w.after.tokens - w.before.tokens) / w.seconds,
    bytesPerToken: (w.after.bytes - w.before.bytes) / (w.after.tokens - w.before.tokens),
  }));
  const m = median(rates.map((r) => r.tps));
  return rates.find((r) => r.tps === m);
}

// A random-weight model ("m" or "l"), built a block at a time; onProgress(share) between blocks.
export function randomModel(engine, name, precision, { layers, seed = 1, onProgress } = {}) {
  const t0 = performance.now();
  const b = new engine.LmRandomBuilder(name, precision, seed, layers);
  let done = 0;
  while (done < 1) {
    done = b.step();
    onProgress?.(done);
  }
  return { model: b.finish(), ms: performance.now() - t0 };
}

// The whole lab. engines: { relaxed?, simd128 } (initialised glue modules); teacher: bytes of
// models/teacher.ielm or null; heldout: text; sizes: [[name, layers|undefined], ...].
export function runLab({ engines, teacher, heldout, prompt, sizes, log = console.log }) {
  const main = engines.relaxed ?? engines.simd128;
  const mainName = engines.relaxed ? 'relaxed' : 'simd128';
  for (const [k, e] of Object.entries(engines)) log(`${k}: kernels ${e.kernels()}, self-test ${e.self_test(7)}`);
  const mainBw = bandwidth(main, 256 * 1024 * 1024);
  const cacheBw = bandwidth(main, 1024 * 1024);
  log(`read bandwidth, one core: ${mainBw.toFixed(1)} GB/s from main memory (256 MiB), ${cacheBw.toFixed(1)} GB/s from cache (1 MiB)`);
  const rows = [];
  const measure = (label, precision, model, kernels) => {
    const s = decodeSpeed(model);
    rows.push({
      model: label, precision, kernels,
      mbPerToken: s.bytesPerToken / 1e6,
      ceiling: (mainBw * 1e9) / s.bytesPerToken,
      cacheCeiling: (cacheBw * 1e9) / s.bytesPerToken,
      tps: s.tps,
    });
  };
  const quality = [];
  if (teacher) {
    const f32 = main.LmModel.load(teacher, 'f32');
    for (const p of ['f32', 'int8', 'int4']) {
      const m = p === 'f32' ? f32 : f32.quantized(p);
      measure('tiny', p, m, mainName);
      const t0 = performance.now();
      const cmp = main.compare(f32, m, heldout);
      const q = { precision: p, bits: cmp.model_bits, agreement: cmp.agreement, evalMs: performance.now() - t0, sample: m.generate(prompt, 200) };
      cmp.free();
      quality.push(q);
      log(`tiny ${p}: held-out ${q.bits.toFixed(4)} bits/char, agreement with f32 ${(100 * q.agreement).toFixed(2)} % (${q.evalMs.toFixed(0)} ms)`);
      if (p === 'int4' && engines.relaxed && engines.simd128) {
        const s = engines.simd128.LmModel.load(teacher, 'int4');
        measure('tiny', 'int4', s, 'simd128');
        s.free();
      }
      if (m !== f32) m.free();
    }
    f32.free();
  }
  for (const [name, layers] of sizes) {
    for (const p of ['f32', 'int8', 'int4']) {
      const label = layers ? `${name} (${layers} blocks)` : name;
      let built;
      try {
        built = randomModel(main, name, p, { layers });
      } catch (e) {
        log(`${label} ${p}: ${e.message}`);
        continue;
      }
      log(`${label} ${p}: generated in ${built.ms.toFixed(0)} ms, ${(built.model.model_bytes() / 1e6).toFixed(1)} MB`);
      measure(label, p, built.model, mainName);
      built.model.free();
      if (p === 'int4' && engines.relaxed && engines.simd128) {
        const s = randomModel(engines.simd128, name, p, { layers });
        measure(label, 'int4', s.model, 'simd128');
        s.model.free();
      }
    }
  }
  return { mainBw, cacheBw, rows, quality };
}

// The results as a Markdown table, with the ratios issue 53 sets targets for.
export function report({ rows }) {
  const out = [
    '| model | precision | kernels | MB/token | ceiling (tok/s) | measured (tok/s) | share of ceiling |',
    '|---|---|---|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    out.push(`| ${r.model} | ${r.precision} | ${r.kernels} | ${r.mbPerToken.toFixed(2)} | ${r.ceiling.toFixed(0)} | ${r.tps.toFixed(0)} | ${((100 * r.tps) / r.ceiling).toFixed(0)} % |`);
  }
  for (const name of new Set(rows.map((r) => r.model))) {
    const get = (p, k) => rows.find((r) => r.model === name && r.precision === p && (!k || r.kernels === k));
    const [f, i8, i4r, i4s] = [get('f32'), get('int8'), get('int4', 'relaxed'), get('int4', 'simd128')];
    if (f && i8) {
      out.push(`${name}: int8 ÷ f32 = ${(i8.tps / f.tps).toFixed(2)}×` +
        (i4r ? `, int4 (relaxed SIMD) ÷ int8 = ${(i4r.tps / i8.tps).toFixed(2)}×` : '') +
        (i4s ? `, int4 (simd128 only) ÷ int8 = ${(i4s.tps / i8.tps).toFixed(2)}×` : ''));
    }
  }
  return out.join('\n');
}
