// The measuring labs' page side (`src/widgets/lab_worker.rs` declares what Rust calls here): makes
// the lab's worker (js/lab-worker.js, built into the lab's folder with the engine and the models:
// xtask/src/lab.rs) when a reader presses Start, relays each message it posts to the widget as
// JSON text, and ends it on Stop. The build names the folder in a <meta name="ie-course-lab">;
// nothing in it is fetched before a Start. The worker's messages are listed at the top of
// js/lab-worker.js.
const workers = new Map();
let next = 1;

/** Starts a worker on `job` (JSON text: the first message it gets); `on_message` gets each
 * message it posts, as JSON text. Returns the worker's id; throws if it cannot be made. */
export function lab_start(job, on_message) {
  const meta = document.querySelector('meta[name="ie-course-lab"]');
  if (!meta) throw new Error("this build has no lab");
  const worker = new Worker(new URL(meta.content + "worker.js", document.baseURI), { type: "module" });
  const id = next++;
  const tell = (message) => on_message(JSON.stringify(message));
  worker.onmessage = (e) => tell(e.data);
  // A script that cannot be loaded or run: the reader gets a message, the page goes on.
  worker.onerror = (e) => {
    e.preventDefault();
    tell({ type: "error", message: "the lab's worker could not run (" + (e.message || "its script could not be loaded") + ")" });
  };
  worker.onmessageerror = () => tell({ type: "error", message: "the lab's worker sent a message that could not be read" });
  workers.set(id, worker);
  worker.postMessage(JSON.parse(job));
  return id;
}

/** Sends `message` (JSON text) to worker `id`, if it still runs. */
export function lab_post(id, message) {
  const worker = workers.get(id);
  if (worker) worker.postMessage(JSON.parse(message));
}

/** Ends worker `id` at once, wherever it is; its memory goes with it. */
export function lab_stop(id) {
  const worker = workers.get(id);
  if (worker) {
    worker.terminate();
    workers.delete(id);
  }
}
