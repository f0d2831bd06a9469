// The measuring lab's worker (a module worker that `js/lab.js` makes from the lab's folder,
// `lab-<hash>/worker.js`, when a reader presses Start; xtask/src/lab.rs builds the folder). It runs
// the decode engine (`crates/lm`, beside it as engine.js with two wasm builds) off the page's
// thread: the page only shows what it is told. Stop is the page ending this worker; everything
// posted before that stays on the page.
//
// Which engine: the relaxed-SIMD build where the browser validates a 40-byte probe that uses
// relaxed SIMD's dot product, else the simd128 build. Where relaxed SIMD runs, the int8 and int4
// runs are timed with the simd128 build too, which shows what they cost without it.
//
// Timing (issue 53): a warm-up, then three windows of at least 200 ms, growing the batch between
// reads of the clock until a window is long enough; the median window counts. Every figure is
// measured on this worker's one thread: one CPU core.
//
// Messages in (page → worker), plain objects:
//   {type: "lab", quick, memoryCap}     run the lab: read bandwidth, then the trained tiny model
//                                       at f32, int8 and int4 (speed, quality, greedy sample),
//                                       then random-weight M, then L (not in a quick run, nor
//                                       where navigator.deviceMemory says under 8 GB); quick: M
//                                       with 2 of its 8 blocks; memoryCap: bytes of large blocks
//                                       the engine may hold (0: no cap), to test a failed allocation
//   {type: "distill", prompt, memoryCap} issue 57: the teacher and six students: quality against
//                                       the teacher, speed, loss curves, greedy samples
//   {type: "samples", prompt}           after "distill": every model's greedy sample anew
//
// Messages out (worker → page), plain objects (no functions, no DOM); `type` says which:
//   {type: "engine", kernels, relaxed}  the build in use ("relaxed-simd" or "simd128"); relaxed:
//                                       whether the browser validates relaxed SIMD
//   {type: "plan", models}              the models this run will time, in order ("tiny", "m", "l")
//   {type: "progress", share, label}    share of the whole run done (0 to 1), and what runs now
//   {type: "bandwidth", where, gbPerS, bytes, note}
//                                       read bandwidth of one core: where "memory" (a 256 MiB
//                                       buffer, or smaller where that cannot be had, and then a
//                                       note says so) or "cache" (1 MiB); GB/s is 10^9 bytes/s
//   {type: "row", model, precision, layers, reduced, parameters, modelBytes, bytesPerToken,
//         tokensPerSecond, kernels, simd128TokensPerSecond}
//                                       one timed run: model "tiny", "m" or "l"; precision "f32",
//                                       "int8" or "int4"; its blocks (reduced: fewer than the
//                                       model has, in a quick run); parameters; bytes in memory;
//                                       bytes read per token (weights and KV cache, mean over the
//                                       median window); tok/s; for int8 and int4 where relaxed SIMD runs,
//                                       the simd128 build's tok/s too (else null)
//   {type: "quality", precision, bitsPerChar, agreement}
//                                       the tiny model on the held-out text: cross-entropy (bits
//                                       per character) and top-1 agreement with f32 (0 to 1)
//   {type: "sample", precision, prompt, text, done}
//                                       the tiny model's greedy continuation so far
//   {type: "failed", model, precision, message}
//                                       one part could not run (a failed allocation: the message
//                                       says what and how much); the run goes on
//   {type: "note", text}                something the reader should know (L skipped, and why)
//   {type: "kd-curves", curves}         [{student, fraction, points: [[step, validation bits]]}]
//   {type: "kd-row", student, fraction, parameters, modelBytes, bitsPerChar, klBits, agreement,
//         tokensPerSecond}              student "teacher", "hard" or "soft"; fraction 0.01, 0.1, 1
//                                       (the teacher's is 1); KL(teacher ‖ model) and agreement
//                                       with the teacher (the teacher's own: 0 and 1)
//   {type: "kd-sample", student, fraction, prompt, text, error}
//   {type: "done"}                      the job ended (its parts may have failed one by one)
//   {type: "error", message}            the job could not go on (the engine or a file could not
//                                       be loaded); nothing more follows
const RELAXED_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10,
  19, 1, 17, 0, 65, 0, 253, 15, 65, 0, 253, 15, 65, 0, 253, 17, 253, 147, 2, 11]);
const WINDOW_MS = 200;
const MIB = 1024 * 1024;
const PRECISIONS = ["f32", "int8", "int4"];
/** The tiny model's prompt and how many characters it continues (the manifest's golden sample). */
const PROMPT = "KING.\nNow, good my lord, ";
const SAMPLE_CHARS = 200;
/** Read-bandwidth buffers: main memory (the first that can be had), and cache. */
const MEMORY_BUFFERS = [256, 128, 64, 32, 16].map((m) => m * MIB);
const CACHE_BUFFER = MIB;
/** Random weights from one seed: every run times the same models. */
const SEED = 1;
const QUICK_M_LAYERS = 2;
const STUDENTS = [["hard", 1], ["soft", 1], ["hard", 10], ["soft", 10], ["hard", 100], ["soft", 100]];

const post = (msg) => self.postMessage(msg);
const at = (file) => new URL(file, import.meta.url);
const reason = (e) => String((e && e.message) || e);

/** The engine: the relaxed build where it validates (and simd128 beside it), else simd128. */
async function engines(memoryCap) {
  const load = async (variant, address) => {
    const glue = await import(address);
    await glue.default({ module_or_path: at(`engine-${variant}.wasm`) });
    glue.set_memory_cap(memoryCap || 0);
    return glue;
  };
  const relaxed = WebAssembly.validate(RELAXED_PROBE);
  // A second instance of the same script: imported under a second address.
  const simd128 = await load("simd128", at("engine.js#simd128").href);
  const main = relaxed ? await load("relaxed", at("engine.js").href) : simd128;
  post({ type: "engine", kernels: main.kernels(), relaxed });
  return { main, simd128: relaxed ? simd128 : null };
}

async function fetched(file, as) {
  const r = await fetch(at(file));
  if (!r.ok) throw new Error(`${file} could not be loaded (HTTP ${r.status})`);
  return as === "text" ? r.text() : as === "json" ? r.json() : new Uint8Array(await r.arrayBuffer());
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs work(n) in growing batches until a window of WINDOW_MS has passed; three windows, each
 * measured before and after; `between()` after each. */
function windows(work, measure, between) {
  const out = [];
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
    out.push({ seconds: elapsed / 1000, before, after: measure() });
    between((w + 1) / 3);
  }
  return out;
}

/** GB/s reading a buffer of `bytes` end to end (one throws if it cannot be had). */
function bandwidth(engine, bytes, between) {
  const buf = new engine.LmReadBuffer(bytes);
  try {
    buf.read(); // warm-up: pages touched, code compiled
    let read = 0;
    const ws = windows((n) => { for (let i = 0; i < n; i++) read += buf.read(); }, () => read, between);
    return { gbPerS: median(ws.map((w) => (w.after - w.before) / w.seconds / 1e9)), bytes: buf.read() };
  } finally {
    buf.free();
  }
}

/** tok/s and bytes read per token of the median window. */
function speed(model, between) {
  model.decode(8); // warm-up
  const ws = windows((n) => model.decode(n), () => ({ tokens: model.tokens_fed(), bytes: model.bytes_read() }), between);
  const rates = ws.map((w) => ({
    tokensPerSecond: (w.after.tokens - w.before.tokens) / w.seconds,
    bytesPerToken: (w.after.bytes - w.before.bytes) / (w.after.tokens - w.before.tokens),
  }));
  const m = median(rates.map((r) => r.tokensPerSecond));
  return rates.find((r) => r.tokensPerSecond === m);
}

/** Progress over the parts of a run, each with a weight (its rough share of the time). */
function progress(parts) {
  const total = parts.reduce((a, [, w]) => a + w, 0);
  let last = 0;
  return (part, within, label) => {
    let done = 0;
    for (const [name, w] of parts) {
      if (name === part) { done += w * Math.min(1, Math.max(0, within)); break; }
      done += w;
    }
    const share = done / total;
    const now = performance.now();
    // At most every 50 ms, plus each part's start: the page redraws for each.
    if (within === 0 || within === 1 || now - last > 50) {
      last = now;
      post({ type: "progress", share, label });
    }
  };
}

const LABEL = { tiny: "the trained tiny model", m: "M (random weights)", l: "L (random weights)" };

async function lab({ quick, memoryCap }) {
  const models = ["tiny", "m"];
  const memory = self.navigator && self.navigator.deviceMemory;
  if (!quick) {
    if (memory && memory < 8) {
      post({ type: "note", text: `L is left out: this device reports ${memory} GB of memory, and L needs about 0.4 GB more.` });
    } else models.push("l");
  }
  post({ type: "plan", models });
  const step = progress([["engine", 2], ["bandwidth", 8], ["tiny", 20], ["m", quick ? 10 : 30], ["l", models.includes("l") ? 40 : 0]]);
  step("engine", 0, "Loading the engine");
  const { main, simd128 } = await engines(memoryCap);
  const [teacher, heldout] = await Promise.all([fetched("models/teacher.ielm"), fetched("models/heldout.txt", "text")]);
  step("engine", 1, "Measuring read bandwidth");

  // Main memory: the first buffer that can be had.
  let got = null;
  const refused = [];
  for (const bytes of MEMORY_BUFFERS) {
    try {
      got = bandwidth(main, bytes, (s) => step("bandwidth", 0.8 * s, "Measuring read bandwidth from main memory"));
      break;
    } catch (e) {
      refused.push(reason(e));
    }
  }
  if (got) {
    const note = refused.length
      ? `${MEMORY_BUFFERS[0] / MIB} MiB could not be had (${refused[0]}), so this read ${got.bytes / MIB} MiB, which may come partly from cache.`
      : null;
    post({ type: "bandwidth", where: "memory", gbPerS: got.gbPerS, bytes: got.bytes, note });
  } else {
    post({ type: "failed", model: "bandwidth", precision: null, message: `No buffer for the bandwidth could be had (${refused[refused.length - 1]}).` });
  }
  try {
    const c = bandwidth(main, CACHE_BUFFER, (s) => step("bandwidth", 0.8 + 0.2 * s, "Measuring read bandwidth from cache"));
    post({ type: "bandwidth", where: "cache", gbPerS: c.gbPerS, bytes: c.bytes, note: null });
  } catch (e) {
    post({ type: "failed", model: "bandwidth", precision: null, message: reason(e) });
  }

  // The trained tiny model: speed, sample and quality at each precision.
  let f32 = null, reference = null;
  for (const [i, p] of PRECISIONS.entries()) {
    const part = (s, what) => step("tiny", (i + s) / 3, `${what} ${LABEL.tiny} at ${p}`);
    let model = null;
    try {
      f32 = f32 || main.LmModel.load(teacher, "f32");
      model = p === "f32" ? f32 : f32.quantized(p);
      part(0, "Timing");
      const s = speed(model, (w) => part(0.4 * w, "Timing"));
      const other = p !== "f32" && simd128 ? simd128Speed(simd128, () => simd128.LmModel.load(teacher, p)) : null;
      post(row("tiny", p, describe(model), s, main.kernels(), other, false));
      part(0.45, "Writing with");
      sample(model, p);
      part(0.5, "Scoring");
      if (p === "f32") {
        reference = new main.LmReference(f32, heldout);
        post({ type: "quality", precision: p, bitsPerChar: reference.bits_per_char(), agreement: 1 });
      } else if (reference) {
        const c = reference.compare(model, heldout);
        post({ type: "quality", precision: p, bitsPerChar: c.model_bits, agreement: c.agreement });
        c.free();
      }
    } catch (e) {
      post({ type: "failed", model: "tiny", precision: p, message: reason(e) });
    } finally {
      if (model && model !== f32) model.free();
    }
  }
  if (reference) reference.free();
  if (f32) f32.free();

  // Random-weight models, built at each precision a block at a time.
  for (const name of models.filter((m) => m !== "tiny")) {
    for (const [i, p] of PRECISIONS.entries()) {
      const part = (s, what) => step(name, (i + s) / 3, `${what} ${LABEL[name]} at ${p}`);
      const layers = name === "m" && quick ? QUICK_M_LAYERS : undefined;
      let model = null;
      try {
        model = build(main, name, p, layers, (s) => part(0.5 * s, "Generating"));
        const s = speed(model, (w) => part(0.5 + 0.4 * w, "Timing"));
        const about = describe(model);
        model.free();
        model = null;
        const other = p !== "f32" && simd128 ? simd128Speed(simd128, () => build(simd128, name, p, layers, () => {})) : null;
        post(row(name, p, about, s, main.kernels(), other, layers !== undefined));
      } catch (e) {
        post({ type: "failed", model: name, precision: p, message: reason(e) });
      } finally {
        if (model) model.free();
      }
    }
  }
  step("l", 1, "Done");
  post({ type: "done" });
}

/** A random-weight model, built a block at a time. */
function build(engine, name, precision, layers, onStep) {
  const b = new engine.LmRandomBuilder(name, precision, SEED, layers);
  try {
    let done = 0;
    while (done < 1) {
      done = b.step();
      onStep(done);
    }
    return b.finish();
  } finally {
    b.free();
  }
}

/** tok/s of a model made in the simd128 build (without relaxed SIMD); null if it fails. */
function simd128Speed(engine, make) {
  let model = null;
  try {
    model = make();
    return speed(model, () => {}).tokensPerSecond;
  } catch {
    return null;
  } finally {
    if (model) model.free();
  }
}

/** What a "row" message says of a model: its blocks, parameters and bytes in memory. */
function describe(model) {
  return { layers: JSON.parse(model.config_json()).n_layers, parameters: model.parameters(), modelBytes: model.model_bytes() };
}

/** A "row" message. */
function row(name, precision, about, s, kernels, simd128TokensPerSecond, reduced) {
  return {
    type: "row", model: name, precision, ...about, reduced, bytesPerToken: s.bytesPerToken,
    tokensPerSecond: s.tokensPerSecond, kernels, simd128TokensPerSecond,
  };
}

/** The tiny model's greedy continuation of PROMPT, posted as it grows. */
function sample(model, precision) {
  model.start(PROMPT);
  let text = "";
  for (let i = 0; i < SAMPLE_CHARS; i++) {
    const c = model.next_char();
    if (c === undefined) break;
    text += c;
    if (i % 25 === 24) post({ type: "sample", precision, prompt: PROMPT, text, done: false });
  }
  post({ type: "sample", precision, prompt: PROMPT, text, done: true });
}

// ------------------------------------------------------------------ issue 57: real distillation
let kd = null;

async function distill({ prompt, memoryCap }) {
  const step = progress([["engine", 5], ["teacher", 25], ["students", 70]]);
  step("engine", 0, "Loading the engine");
  const { main } = await engines(memoryCap);
  const [manifest, heldout, teacher] = await Promise.all([
    fetched("models/manifest.json", "json"), fetched("models/heldout.txt", "text"), fetched("models/teacher.ielm"),
  ]);
  const entry = (student, fraction) => manifest.models[student === "teacher" ? "teacher" : `student-${student}-${Math.round(fraction * 100)}`];
  const curves = [["teacher", 1], ...STUDENTS.map(([s, f]) => [s, f / 100])].map(([student, fraction]) => ({
    student, fraction, points: ((entry(student, fraction) || {}).loss_curve || []).map((p) => [p.step, p.val_bits]),
  }));
  post({ type: "kd-curves", curves });
  step("engine", 1, "Scoring the teacher");
  const models = [];
  const t = main.LmModel.load(teacher, "f32");
  models.push({ student: "teacher", fraction: 1, model: t });
  const reference = new main.LmReference(t, heldout);
  const measured = (m, s) => speed(m, (w) => step(...s(w)));
  post({
    type: "kd-row", student: "teacher", fraction: 1, parameters: t.parameters(), modelBytes: t.model_bytes(),
    bitsPerChar: reference.bits_per_char(), klBits: 0, agreement: 1,
    tokensPerSecond: measured(t, (w) => ["teacher", 0.5 + 0.5 * w, "Timing the teacher"]).tokensPerSecond,
  });
  for (const [i, [student, percent]] of STUDENTS.entries()) {
    const fraction = percent / 100;
    const name = `${student === "hard" ? "hard-label" : "distilled"} student on ${percent} % of the text`;
    const s = (within) => ["students", (i + within) / STUDENTS.length, `Scoring and timing the ${name}`];
    try {
      step(...s(0));
      const m = main.LmModel.load(await fetched(`models/student-${student}-${percent}.ielm`), "f32");
      models.push({ student, fraction, model: m });
      const c = reference.compare(m, heldout);
      const row = { type: "kd-row", student, fraction, parameters: m.parameters(), modelBytes: m.model_bytes(), bitsPerChar: c.model_bits, klBits: c.kl_bits, agreement: c.agreement };
      c.free();
      row.tokensPerSecond = measured(m, (w) => s(0.5 + 0.5 * w)).tokensPerSecond;
      post(row);
    } catch (e) {
      post({ type: "failed", model: `The ${name}`, precision: null, message: reason(e) });
    }
  }
  reference.free();
  kd = models;
  samples(prompt);
  step("students", 1, "Done");
  post({ type: "done" });
}

/** Every loaded model's greedy continuation of `prompt`. */
function samples(prompt) {
  for (const { student, fraction, model } of kd || []) {
    try {
      post({ type: "kd-sample", student, fraction, prompt, text: model.generate(prompt, SAMPLE_CHARS), error: null });
    } catch (e) {
      post({ type: "kd-sample", student, fraction, prompt, text: "", error: reason(e) });
    }
  }
}

self.onmessage = async ({ data }) => {
  try {
    if (data.type === "lab") await lab(data);
    else if (data.type === "distill") await distill(data);
    else if (data.type === "samples") samples(String(data.prompt));
  } catch (e) {
    post({ type: "error", message: reason(e) });
  }
};
