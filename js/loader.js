// The widget loader: puts each lesson's widgets into their places (`src/app/widget_slot.rs`
// declares what Rust calls here; `js/start.js` and `js/prose.js` call the rest). Widgets live in
// widgets modules of their own (`src/widgets/modules.rs`), loaded on first need: the first page a
// reader opens fetches only its own module, and a lesson only the module with its own widgets.
//
// Which module. The build names the page's own widgets module in a <meta name="ie-course-widgets">
// (`content`, `data-wasm`: its files; `data-widgets`: what it carries, its widgets and the lessons
// whose recall cards it has, `cards:<slug>`) and, in `data-modules`, a file listing every module,
// smallest first. A page the shell fetches for a move in the app names its own module too: the
// shell hands that <meta> over as soon as the page arrives (`ahead`, called from `js/prose.js`),
// so that module is fetched and compiled while the lesson is drawn. When neither carries what a
// page's widgets need (each place's `data-needs`), the first module in the list that carries it
// all loads. Each module loads once, and with it its own stylesheet (`data-css`, and `css` in the
// list: the rules of the widgets it carries, cut from style/widgets.css by the build), which a
// widget waits for so that it never shows unstyled.
//
// Instances. On a lesson page the shell runs in an instance of the page's widgets module (each
// carries the shell): `js/start.js` imports the module's script under its own address and starts
// the shell there. The widgets run in a second instance of the same compiled module, made by
// importing the same script under the address with `#widgets` after it: a module is instantiated
// once per address, and the fragment is not sent, so the browser fetches the file once. The
// compiled wasm comes from the start script (`init`), so both instances share one download and
// one compile.
//
// Order. Widgets mount one a task, so that a page with several never holds the main thread for
// all at once, and only when the reader could soon see them: a widget mounts when its place is on
// or near the screen (an IntersectionObserver says which: within two screens' height above or
// below it, so it is compiled and laid out before the reader gets there), or, when no nearer one
// waits, once the browser is idle (`requestIdleCallback`), one an idle period, in page order. A
// lesson's load then does the work for the screen the reader is on, and the rest waits for quiet
// rather than crowding the load. The reader keeps their place: a widget whose place starts above the top of the screen grows the page above what they
// read, so the page scrolls by as much as it grew. Each place is measured just before its mount,
// as the observer's last report may be older than the last scroll. A place above the screen is
// laid out even while off it (`content-visibility: visible`), so that what it grows by is known at
// once. A place is observed afresh each time it waits, so a mount follows even when it was
// watched already (a restart).
//
// Early widgets. The widgets on or near the screen when a lesson starts go live before the shell
// draws the page anew, in the page the build wrote: the start script calls `early.ready()`, starts
// the shell once they are mounted (or have failed, or after 3 s at most), then calls
// `early.started()`. When the shell draws its own places, each takes the widget mounted in the
// build's place of that name and parameters, in page order, as it is (`adopt`): its nodes move,
// its state and its fields' text stay, and the field the reader was in gets the focus back. The
// notices those widgets send (stored data they could not read) are held until the shell listens.
//
// Drawn widgets (the diagrams) need no module: only a stylesheet (every module's has their rules)
// and `js/diagrams.js`, imported by its address in the <meta> (`drawn_shown`). A stylesheet the
// page links already is not linked again, unless it has no rules: its load failed, and the loader
// asks for it anew with a link of its own, which takes the old one's place once it loads.
//
// A module that traps (a panic aborts it: `WebAssembly.RuntimeError`, seen as an uncaught error
// or rejection) would leave every widget it drew looking live but deaf. So the loader remembers
// every place it filled; on the first trap it replaces each with a notice (`widget-stopped`)
// offering a restart (`widget-restart`), and places shown later get the same notice. The shell is
// another instance and goes on. A restart imports each module's script under a new fragment (a
// fresh instance) and mounts every place anew from what is stored.
let list = null, stopped = false, stepping = false, focused = null, earlyDone = null, late = false, restarts = 0;
let compile = (wasm) => Promise.resolve(wasm), firstSheet = null;
const ahead_ = [], early_ = [], held = [], loading = new Map(), sheets = new Map(), mounted = new Map(), waiting = new Map();
const near = new WeakSet(), filled = new WeakSet(), at = (file) => new URL(file, document.baseURI).href;
const widgetsMeta = () => document.querySelector('meta[name="ie-course-widgets"]');
const hold = (e) => held.push(e.detail);
const watch = window.IntersectionObserver ? new IntersectionObserver((seen) => {
  for (const e of seen) {
    if (e.isIntersecting) near.add(e.target); else near.delete(e.target);
  }
  step();
}, { rootMargin: "200% 0px" }) : null;

/** Called once by the start script before anything else here: how to fetch and compile a wasm
 * file (its own, shared, so a file is fetched and compiled once), and the widgets' stylesheet it
 * linked as it asked for the module, if it did (`{ href, loaded }`). */
export function init(how) {
  compile = how.compile;
  firstSheet = how.sheet || null;
}

function ruled(link) {
  try { return link.sheet.cssRules.length > 0; } catch { return false; }
}

function styles(file) {
  const href = at(file);
  if (!sheets.has(href)) sheets.set(href, (firstSheet && firstSheet.href === href ? firstSheet.loaded : Promise.resolve()).then(() => {
    const had = [...document.querySelectorAll('link[rel="stylesheet"]')].find((l) => l.href === href);
    return had && ruled(had) ? undefined : new Promise((ok, fail) => {
      const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href });
      link.onload = () => { if (had) had.remove(); ok(); };
      link.onerror = () => { link.remove(); sheets.delete(href); fail(new Error("its stylesheet did not load")); };
      document.head.append(link);
    });
  }));
  return sheets.get(href);
}

/** Makes sure what the widget the build drew in `el` needs is in the page: the widgets'
 * stylesheet, and the diagrams' script, which takes the diagram in. */
export function drawn_shown(el) {
  const m = widgetsMeta();
  if (!m) return;
  styles(m.dataset.css).catch(() => {});
  if (m.dataset.diagrams) import(at(m.dataset.diagrams)).then((d) => d.watch(el)).catch(() => {});
}

const named = (m) => ({ js: m.content, wasm: m.dataset.wasm, css: m.dataset.css, widgets: (m.dataset.widgets || "").split(" ").filter(Boolean) });

/** The widgets <meta> of a page fetched for a move in the app: its module starts loading now. */
export function ahead(page) {
  const m = widgetsMeta(), mod = named(page);
  if (!m || stopped || !mod.js || !mod.wasm || mod.widgets.every((w) => named(m).widgets.includes(w))) return;
  if (!ahead_.some((a) => a.js === mod.js)) ahead_.push(mod);
  start(mod).catch(() => {});
  styles(mod.css || m.dataset.css).catch(() => {});
}

async function pick(name, m) {
  const own = named(m);
  const shown = [name, ...[...document.querySelectorAll("[data-widget-slot]")].flatMap((e) => (e.dataset.needs || e.dataset.widgetSlot).split(" "))];
  const carries = (mod) => shown.every((w) => mod.widgets.includes(w));
  if (carries(own)) return own;
  const fetched = ahead_.find(carries);
  if (fetched) return fetched;
  list = list || fetch(at(m.dataset.modules)).then((r) => r.json());
  list.catch(() => { list = null; });
  const all = await list;
  return all.find(carries) || all.find((mod) => mod.widgets.includes(name)) || own;
}

function start(mod) {
  if (!loading.has(mod.js)) {
    const script = at(mod.js) + "#widgets" + (restarts ? "-" + restarts : "");
    const instance = Promise.all([import(script), compile(at(mod.wasm))]).then(async ([glue, module]) => {
      await glue.default({ module_or_path: module });
      return glue;
    });
    instance.catch(() => loading.delete(mod.js));
    loading.set(mod.js, instance);
  }
  return loading.get(mod.js);
}

async function load(name) {
  const m = widgetsMeta();
  if (!m) throw new Error("this build has no widgets module");
  const mod = pick(name, m);
  const [instance] = await Promise.all([mod.then(start), mod.then((x) => styles(x.css || m.dataset.css))]);
  return instance;
}

function restart() {
  stopped = false;
  restarts += 1;
  loading.clear();
  for (const [el, w] of [...mounted]) {
    if (el.isConnected) mount_widget(el, w.name, w.params); else mounted.delete(el);
  }
}

function notice(el) {
  const note = Object.assign(document.createElement("div"), { className: "widget-stopped", role: "alert" });
  note.dataset.testid = "widget-stopped";
  const text = Object.assign(document.createElement("p"), {
    textContent: "This interactive part stopped working. The lesson still reads, and what you saved in this browser is kept.",
  });
  const again = Object.assign(document.createElement("button"), { type: "button", textContent: "Restart the interactive parts" });
  again.dataset.testid = "widget-restart";
  again.addEventListener("click", restart);
  note.append(text, again);
  el.replaceChildren(note);
}

function stop(error) {
  if (stopped || !(error instanceof WebAssembly.RuntimeError) || loading.size === 0) return;
  stopped = true;
  for (const [el] of [...mounted]) {
    if (el.isConnected) notice(el); else mounted.delete(el);
  }
}
addEventListener("error", (e) => stop(e.error));
addEventListener("unhandledrejection", (e) => stop(e.reason));

function failed(el, e) {
  filled.add(el);
  if (e instanceof WebAssembly.RuntimeError) stop(e);
  else {
    el.classList.add("widget-error");
    el.textContent = "This interactive part could not be loaded (" + e.message + "). Reload the page to try again.";
  }
  settle();
}

function settle() {
  if (earlyDone && (stopped || late || early_.every((e) => filled.has(e)))) { setTimeout(earlyDone, 0); earlyDone = null; }
}

/** The widgets that go live before the shell starts (see the top of this file). */
export const early = {
  /** Mounts the widgets on or near the screen in the page the build wrote; resolves once they
   * are mounted or have failed (3 s at most), or at once when there are none. */
  ready() {
    const app = document.getElementById("app"), h = innerHeight;
    if (!app || !widgetsMeta()) return Promise.resolve();
    for (const el of app.querySelectorAll("[data-widget-slot]")) {
      const box = el.getBoundingClientRect();
      if (box.bottom > -h && box.top < 2 * h) early_.push(el);
    }
    if (!early_.length) return Promise.resolve();
    addEventListener("ie-course-notice", hold);
    setTimeout(() => { late = true; settle(); }, 3000);
    const p = new Promise((ok) => { earlyDone = () => { focused = document.activeElement; ok(); }; });
    for (const el of early_) mount_widget(el, el.dataset.widgetSlot, el.dataset.params);
    return p;
  },
  /** The shell listens now: hands it the notices held meanwhile. */
  started() {
    removeEventListener("ie-course-notice", hold);
    for (const detail of held.splice(0)) dispatchEvent(new CustomEvent("ie-course-notice", { detail }));
  },
};

function adopt(el, name, params) {
  const i = early_.findIndex((e) => !e.isConnected && e.dataset.widgetSlot === name && e.dataset.params === params);
  if (i < 0) return false;
  const from = early_.splice(i, 1)[0], was = mounted.get(from);
  waiting.delete(from);
  mounted.delete(from);
  if (watch) watch.unobserve(from);
  if (!was || !filled.has(from) || from.classList.contains("widget-error")) return false;
  el.replaceChildren(...from.childNodes);
  el.className = from.className;
  el.style.contentVisibility = from.style.contentVisibility;
  mounted.set(el, was);
  if (el.contains(focused)) focused.focus({ preventScroll: true });
  return true;
}

/** Mounts the widget waiting in `el` now: measured just before, so that a place above the screen
 * makes the page scroll by what it grew. */
function mountNow(el) {
  const w = waiting.get(el);
  waiting.delete(el);
  if (watch) watch.unobserve(el);
  const box = el.getBoundingClientRect(), keep = box.top < 0;
  if (keep) el.style.contentVisibility = "visible";
  filled.add(el);
  if (!stopped) { try { w.m.mount_widget(el, w.name, w.params); } catch (e) { failed(el, e); } }
  if (keep) { const grew = el.getBoundingClientRect().bottom - box.bottom; if (grew) scrollBy(0, grew); }
  settle();
}

function forget() {
  for (const e of [...waiting.keys()]) if (!e.isConnected) { waiting.delete(e); if (watch) watch.unobserve(e); }
}

/** The next mount, a task from now: a place near the screen if one waits; else, once the browser
 * is idle, the first in page order. */
function step() {
  if (stepping) return;
  stepping = true;
  setTimeout(() => {
    stepping = false;
    forget();
    const all = [...waiting.keys()], el = all.find((e) => near.has(e)) || (watch ? null : all[0]);
    if (el) mountNow(el);
    if (waiting.size) (el ? step : whenIdle)();
  }, 0);
}

let idling = false;
function whenIdle() {
  if (idling) return;
  idling = true;
  const later = window.requestIdleCallback || ((f) => setTimeout(f, 200));
  later(() => {
    idling = false;
    forget();
    const all = [...waiting.keys()];
    // A place the reader came near meanwhile goes first (its own report calls `step`).
    if (!all.length || all.some((e) => near.has(e))) return step();
    mountNow(all[0]);
    if (waiting.size) whenIdle();
  });
}

/** Loads the page's widgets module (once) and mounts widget `name` with `params` (JSON pairs)
 * in `el`. */
export function mount_widget(el, name, params) {
  if (adopt(el, name, params)) return;
  for (const gone of [...mounted.keys()].filter((e) => !e.isConnected && !early_.includes(e))) mounted.delete(gone);
  mounted.set(el, { name, params });
  if (stopped) { notice(el); return; }
  load(name).then((m) => {
    waiting.set(el, { m, name, params });
    if (watch) { watch.unobserve(el); watch.observe(el); }
    if (!watch || scrollY === 0) step();
  }).catch((e) => failed(el, e));
}
