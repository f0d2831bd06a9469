// The SQL engine for the mini eval's execution grading (`src/widgets/mini_eval/engine.rs`
// declares what Rust calls here): SQLite in a wasm module of its own (`src/bin/ie-sql.rs`),
// imported the first time a reader turns execution grading on, never before. The build names the
// module's script and wasm in a <meta name="ie-course-sql">.
let loading = null, engine = null, failures = 0;

/** Imports and starts the SQL module (once); rejects with the reason it could not. */
export function load_sql_engine() {
  if (!loading) {
    const meta = document.querySelector('meta[name="ie-course-sql"]');
    if (!meta) return Promise.reject(new Error("this build has no SQL engine"));
    const js = new URL(meta.content, document.baseURI);
    // A browser may keep a failed import: a retry asks for the module under a new address.
    if (failures > 0) js.hash = "retry-" + failures;
    loading = import(js.href).then(async (m) => {
      await m.default({ module_or_path: new URL(meta.dataset.wasm, document.baseURI).href });
      engine = m;
    });
    loading.catch(() => { loading = null; failures += 1; });
  }
  return loading;
}

/** Runs `schema` then `query` in a fresh database: the engine's JSON answer. */
export function run_sql(schema, query) {
  if (!engine) return JSON.stringify({ error: "the SQL engine is not loaded" });
  try {
    return engine.run(schema, query);
  } catch (e) {
    return JSON.stringify({ error: "the SQL engine failed (" + e + ")" });
  }
}

/** Resolves in a later task, so the browser can paint and take input in between. */
export function next_task() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
