// Starts the app on every page, once the browser has painted the page the build wrote (its first
// largest-contentful-paint, or the first frame where the browser has no such entry), so the text
// never waits for the wasm. Loaded as a module script from every page's <head>.
//
// The page names its module in a <meta name="ie-course-app">: its script (`content`), its wasm
// (`data-wasm`), the scripts its script imports (`data-imports`: wasm-bindgen's snippets, asked for
// at once rather than one round trip later) and among them the widget loader (`data-loader`,
// js/loader.js). A lesson's module is its widgets module, which carries the shell too; a page
// without widgets names the shell's own. This script fetches and compiles the wasm once, starts
// the shell in the instance its script makes under its own address, and hands the compiled module
// to the widget loader, which serves the widgets from a second instance (js/loader.js, top).
// Before it starts the shell, it has the widgets on or near the screen mounted in the page as the
// build wrote it (`early` in js/loader.js). On a page with widgets it links the widgets'
// stylesheet as it asks for the module, unless the head links it already.
//
// Before the page runs its wasm, a worker runs it once (js/warmup.js): it is made as the page asks
// for the wasm (`hire`) and sent the module's script, the page's address and the widgets the page
// shows, so that it imports that script while the wasm downloads; then it is sent the compiled
// module (`warm`), starts the shell and mounts each widget against stand-in DOM objects, so that
// V8 compiles their code on the worker's thread, and the page's own start and mounts find it
// compiled (Chromium compiles a wasm function at its first call, on the calling thread, and a
// module shares its compiled code with the workers it is sent to). The page waits for the
// worker's answer, a second at most, ends it, and starts as before; a worker that cannot be made
// or fails changes nothing but the wait. Only Chromium gets a worker (`navigator.userAgentData` is
// its own): Firefox compiles the whole module as it arrives, and there the worker only made the
// start later.
const at = (file) => new URL(file, document.baseURI).href;
const compiled = {};
/** The wasm at `url`, fetched and compiled once however often it is asked for. */
const compile = (url) => compiled[url] = compiled[url] || fetch(url).then((r) => {
  if (!r.ok) throw new Error("HTTP " + r.status);
  const streams = /^application\/wasm/.test(r.headers.get("content-type") || "");
  return streams ? WebAssembly.compileStreaming(r) : r.arrayBuffer().then((b) => WebAssembly.compile(b));
}).catch((e) => { delete compiled[url]; throw e; });

const app = document.querySelector('meta[name="ie-course-app"]');
const widgets = document.querySelector('meta[name="ie-course-widgets"]');
const warmup = document.querySelector('meta[name="ie-course-warmup"]');

/** Asks for the script's snippets and (on a page with widgets) the widgets' stylesheet now. */
function ahead() {
  for (const f of (app.dataset.imports || "").split(" ")) if (f) import(at(f)).catch(() => {});
  const href = widgets && widgets.dataset.css && document.querySelector("[data-widget-slot]") && at(widgets.dataset.css);
  if (!href || [...document.querySelectorAll('link[rel="stylesheet"]')].some((l) => l.href === href)) return null;
  const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href });
  const sheet = { href, loaded: new Promise((done) => { link.onload = link.onerror = () => done(); }) };
  document.head.append(link);
  return sheet;
}

let hired = null;
function hire(glue) {
  if (!navigator.userAgentData || !warmup) return;
  try {
    const w = hired = new Worker(at(warmup.content), { type: "module" });
    w.onerror = () => { w.failed = true; };
    const shown = [...document.querySelectorAll("[data-widget-slot]")].map((e) => [e.dataset.widgetSlot, e.dataset.params || "[]"]);
    w.postMessage({ glue, page: location.href, base: document.baseURI, widgets: shown });
  } catch {
    hired = null;
  }
}

/** Sends the worker the compiled module and waits for its answer, a second at most. How it went
 * is left as a performance mark, `ie-course:warm-up` (detail: the worker's answer, its time,
 * touches of stand-ins and which of its own bounds it hit, if one; or `{ cap: true }`). */
function warm(module) {
  return new Promise((done) => {
    const w = hired;
    let timer = 0, ended = false;
    hired = null;
    // Once: an error the worker throws after its answer (a task its run left behind) says nothing.
    const end = (detail) => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      if (w) w.terminate();
      if (detail) performance.mark("ie-course:warm-up", { detail });
      done();
    };
    if (!w || w.failed || !module) return end();
    try {
      w.onmessage = (e) => end(e.data);
      w.onerror = () => end({ failed: true });
      w.postMessage({ module });
      timer = setTimeout(() => end({ cap: true }), 1000);
    } catch {
      end();
    }
  });
}

async function start() {
  if (!app) return;
  const sheet = ahead();
  const glue = at(app.content);
  hire(glue);
  let parts;
  try {
    parts = await Promise.all([import(glue), import(at(app.dataset.loader)), compile(at(app.dataset.wasm))]);
  } catch (e) {
    await warm();
    throw e;
  }
  const [shell, loader, module] = parts;
  loader.init({ compile, sheet });
  await warm(module);
  await shell.default({ module_or_path: module });
  await loader.early.ready();
  shell.start_app();
  loader.early.started();
}

let started = false;
const go = () => {
  if (!started) {
    started = true;
    start();
  }
};
const lcp = window.PerformanceObserver && PerformanceObserver.supportedEntryTypes.includes("largest-contentful-paint");
if (document.visibilityState !== "visible") go();
else if (lcp) {
  new PerformanceObserver((list, observer) => { observer.disconnect(); setTimeout(go, 0); }).observe({ type: "largest-contentful-paint", buffered: true });
  setTimeout(go, 1500);
} else requestAnimationFrame(() => setTimeout(go, 0));
