// A worker that runs the page's wasm once before the page does, so that V8 compiles the code the
// page's start needs here and not on the page's main thread (README, "Benchmark", on compiling at
// first call). Chromium compiles a wasm function the first time it is called, on the thread that
// calls it, and a module sent to a worker shares its compiled code with the page
// (bench/compile-share.mjs). The page's start script (js/start.js) makes this worker as it
// asks for its wasm and sends the module's wasm-bindgen script, the page's address and the widgets
// the page shows, so that the script is imported here while the wasm downloads; then it sends
// the module it compiled, waits for the answer (for a limited time), ends this worker and starts
// the app as before. Chromium only: Firefox compiles the whole module as it arrives, and there
// this worker only made the page start later.
//
// Here there is no page: every DOM object the wasm asks for is a stand-in (a Proxy whose every
// property is another stand-in and every call returns one), except what a start reads as text,
// a number or "no node", so that it goes the way a fresh page's start goes as far as it can. It
// writes nothing anyone reads: its storage, history and network are stand-ins too, and its
// instance and memory go with the worker. Whatever it stops at (an error, a trap) only leaves
// the rest for the page to compile.
const NO_NODE = new Set(["firstChild", "lastChild", "nextSibling", "previousSibling", "parentNode",
  "parentElement", "firstElementChild", "nextElementSibling", "activeElement", "then"]);
const TEXT = new Set(["search", "hash", "textContent", "value", "tagName", "localName", "innerHTML", "id"]);
// The page's base address, sent in the first message (see `onmessage`).
let base = self.location.origin + "/";
// The bound on what a run may do: a loop over a stand-in (a `while (node.firstChild)` the lists
// above do not cover) would otherwise spin until the page's cap (a second) on every load. Past
// either limit, every touch of a stand-in throws, which ends what the wasm was doing (the throw
// unwinds it, as any error does) and the run goes on to the next widget, then answers. A lesson's
// whole run makes 1,800-14,000 touches in 30-160 ms (2-core VM, unthrottled, 2026-12-06; the print
// page, every widget at once, 30,000 in 275 ms), so the bound is far from a real run.
const MAX_TOUCHES = 200_000, MAX_MS = 500;
let touches = 0, began = 0, bound = null;
function touch() {
  touches += 1;
  if (!bound && touches > MAX_TOUCHES) bound = "touches";
  if (!bound && performance.now() - began > MAX_MS) bound = "time";
  if (bound) throw new Error("the warm-up run went past its bound");
}
const handler = {
  get(target, key) {
    touch();
    if (key === Symbol.toPrimitive) return () => "";
    if (typeof key === "symbol") return undefined;
    if (key === "length" || key === "nodeType") return 0;
    if (key === "baseURI" || key === "href" || key === "URL") return base;
    if (key === "pathname") return "/";
    if (TEXT.has(key)) return "";
    if (key === "location") return self.location;
    if (key === "querySelectorAll" || key === "getElementsByTagName") return () => [];
    if (key === "getElementById" || key === "querySelector" || key === "closest" || key === "getItem" || key === "matches") return () => null;
    if (NO_NODE.has(key)) return null;
    if (key in target) return target[key];
    return stand();
  },
  apply: () => { touch(); return stand(); },
  construct: () => { touch(); return stand(); },
  set(target, key, value) { target[key] = value; return true; },
  has: () => true,
};
function stand() { return new Proxy(function () {}, handler); }
// wasm-bindgen's casts ask `instanceof`: every stand-in passes. The observers stay undefined,
// so that the widget loader's script, which the module's script imports, makes none.
for (const name of ["Window", "Document", "Node", "Element", "HTMLElement", "HTMLAnchorElement", "HTMLInputElement",
  "HTMLTextAreaElement", "HTMLSelectElement", "HTMLDialogElement", "CustomEvent", "KeyboardEvent", "MouseEvent",
  "ShadowRoot"]) {
  self[name] = class { static [Symbol.hasInstance](x) { return x === self || typeof x === "function"; } };
}
Object.assign(self, {
  window: self, document: stand(), localStorage: stand(), sessionStorage: stand(), history: stand(),
  matchMedia: () => stand(), getComputedStyle: () => stand(), requestAnimationFrame: () => 0,
  cancelAnimationFrame: () => {}, innerHeight: 800, innerWidth: 400, scrollY: 0, scrollBy: () => {},
  fetch: () => new Promise(() => {}),
});
const tick = () => new Promise((done) => setTimeout(done, 0));
// The first message: the module's script, the page's address and base, and its widgets.
let asked = null, imported = null;
onmessage = async (e) => {
  if (!asked) {
    asked = e.data;
    try {
      // The app reads its route from the page's address and base: with them it draws the page's
      // own page here (a lesson's), not "no lesson at this address" for the worker's script.
      if (asked.page) Object.defineProperty(self, "location", { value: new URL(asked.page), configurable: true });
      if (asked.base) base = asked.base;
      imported = import(asked.glue);
      imported.catch(() => {});
    } catch { /* the run below stops, and the page compiles it all */ }
    return;
  }
  // The second: the compiled module.
  const { module } = e.data, { widgets } = asked;
  began = performance.now();
  try {
    const wasm = await imported;
    await wasm.default({ module_or_path: module });
    wasm.start_app();
    await tick();
    for (const [name, params] of widgets) {
      // A widget that stops here leaves its own rest to the page, not the next widget's.
      try { wasm.mount_widget(stand(), name, params); } catch { /* see above */ }
      await tick();
    }
  } catch {
    // The rest is compiled by the page, as without this worker.
  }
  postMessage({ ms: Math.round(performance.now() - began), touches, bound });
};
