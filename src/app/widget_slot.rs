//! Where a lesson places a widget. The widgets live in widgets modules of their own
//! (`src/widgets/modules.rs`), loaded on first need, so the first page a reader opens fetches only
//! the shell and the text, and a lesson only the module with its own widgets; the build lists the
//! modules in a `<meta name="ie-course-widgets">`.

use crate::content::WidgetUse;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

// The loader, as JavaScript (its text is part of every page's first load, so it carries no
// comments; they are here). The build names the page's own widgets module in a <meta>
// (`content`, `data-wasm`: its files; `data-widgets`: what it carries, its widgets and the
// lessons whose recall cards it has, `cards:<slug>`) and, in `data-modules`,
// a file listing every module, smallest first (src/widgets/modules.rs). A page the shell fetches
// for a move in the app names its own module too: the shell hands that `<meta>` over as soon as
// the page arrives (`window.ieCourseWidgetsAhead`, called from `prose.rs`), so that module is
// fetched and compiled while the lesson is drawn. When neither the page's own module nor one
// handed over carries what a page's widgets need (each slot's `data-needs`), the first module
// in the list that carries it all
// loads. Each module loads once, and with it its own stylesheet (`data-css`, and `css` in the
// list: the rules of the widgets it carries, cut from style/widgets.css by the build), which a
// widget waits for so that it never shows unstyled. Widgets mount one a task, so that a page
// with several never holds the main thread for all at once: first those on or near the screen
// (an IntersectionObserver says which), then the others in
// page order. A reader who comes back to the middle of a lesson gets the
// widget in front of them first; at the top of a page, page order is that order already, so the
// first mount does not wait for the observer's first report. The reader keeps their place: a
// widget whose place starts above the top of the screen grows the page above what they read, so
// the page scrolls by as much as it grew (the browser's own scroll anchoring did not hold the
// place through a lesson's mounts). Each place is measured just before its mount, as the
// observer's last report on it may be older than the last scroll (a jump to a heading right
// after a move in the app). A place above the screen is then laid out even while off it
// (`content-visibility: visible`), so that what it grows by is known at once, not at a later
// frame the page would jump in.
// A slot is observed afresh each time it waits, so that the observer reports on it (and a mount
// follows) even when it was watched already (a restart).
//
// The widgets on or near the screen when a lesson starts go live before the shell draws the page
// anew, in the page the build wrote: the start script (`src/prerender.rs`) calls
// `ieCourseEarly.ready()`, starts the shell once they are mounted (or have failed, or after 3 s
// at most), then calls `started()`. A reader who lands on a widget (a link to it, a reload in the
// middle of a lesson) can use it while the shell is still to come. Near is what the observer
// calls near: within a screen's height above or below it. Those further down mount after the
// shell, as before: at the top of a lesson, what the reader uses first is the shell's header.
// When the shell draws its own slots, each takes the widget mounted in the build's slot of that
// name and parameters, in page order, as it is (`adopt`): its nodes move, its state and its
// fields' text stay, and the field the reader was in (noted just before the shell starts) gets
// the focus back. A widget mounted early that the shell has not drawn yet, or that could not be
// loaded, is mounted anew in the shell's slot (a stylesheet that failed is asked for again).
// The notices those widgets send (stored data they could not read) are held until the shell
// listens (`started`).
//
// The widgets the build draws (the diagrams) need no module: only a stylesheet (every module's
// has their rules), and a small script of their own (`drawn_shown`). A stylesheet the page links
// already is not linked again, unless it has no rules: the page's own link failed (its `load` or
// `error` event has passed; Chromium gives it a sheet whose rules cannot be read, and the widgets
// used to show unstyled), and the loader asks for the file anew with a link of its own, which
// takes the old one's place once it loads. The start script links a lesson's stylesheet as it
// asks for the module (`window.ieCourseSheet`, `src/prerender.rs`); the loader waits for that
// link to load or fail, then goes on the same way.
//
// On a lesson page the shell itself runs in an instance of the page's widgets module (each
// carries the shell: `src/widgets/modules.rs`). A module's script gives a new instance each time
// it is asked (`instance()`: the build wraps wasm-bindgen's script so, `glue_as_factory` in
// `src/prerender.rs`): the loader imports the same script as the page's start script did, and
// asks it for an instance of the widgets' own. It asks the start script for the compiled wasm
// (`window.ieCourseCompile`), so that both instances share one download of each file and one
// compile. The wasm is fetched and compiled while its script is imported, not after.
//
// A widgets module that traps (a panic aborts it: `WebAssembly.RuntimeError`, seen as an uncaught
// error or rejection) would leave every widget it drew looking live but deaf. So the loader
// remembers every slot it filled; on the first trap it replaces each with a notice
// (`widget-stopped`) offering a restart (`widget-restart`), and slots shown later get the same
// notice. The shell is another instance and goes on. A restart asks each module's script for a
// fresh instance, and mounts every slot anew from what is stored.
#[wasm_bindgen(inline_js = r#"
let list = null, stopped = false, stepping = false, focused = null, earlyDone = null, late = false;
const ahead = [], early = [], held = [], loading = new Map(), sheets = new Map(), mounted = new Map(), waiting = new Map(), near = new WeakSet(), filled = new WeakSet(), at = (file) => new URL(file, document.baseURI).href;
const hold = (e) => held.push(e.detail);
const watch = window.IntersectionObserver ? new IntersectionObserver((seen) => {
  for (const e of seen) {
    if (e.isIntersecting) near.add(e.target); else near.delete(e.target);
  }
  step();
}, { rootMargin: "100% 0px" }) : null;
function ruled(link) {
  try { return link.sheet.cssRules.length > 0; } catch { return false; }
}
function styles(file) {
  const href = at(file), first = window.ieCourseSheet;
  if (!sheets.has(href)) sheets.set(href, (first && first.href === href ? first.loaded : Promise.resolve()).then(() => {
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
export function drawn_shown(el) {
  const m = document.querySelector('meta[name="ie-course-widgets"]');
  if (!m) return;
  styles(m.dataset.css).catch(() => {});
  if (window.ieCourseDiagrams) window.ieCourseDiagrams.watch(el);
  else if (m.dataset.diagrams && !document.querySelector("script[data-diagrams]")) {
    const s = Object.assign(document.createElement("script"), { src: at(m.dataset.diagrams) });
    s.dataset.diagrams = "";
    document.head.append(s);
  }
}
const named = (m) => ({ js: m.content, wasm: m.dataset.wasm, css: m.dataset.css, widgets: (m.dataset.widgets || "").split(" ").filter(Boolean) });
window.ieCourseWidgetsAhead = (page) => {
  const m = document.querySelector('meta[name="ie-course-widgets"]'), mod = named(page);
  if (!m || stopped || !mod.js || !mod.wasm || mod.widgets.every((w) => named(m).widgets.includes(w))) return;
  if (!ahead.some((a) => a.js === mod.js)) ahead.push(mod);
  start(mod).catch(() => {});
  styles(mod.css || m.dataset.css).catch(() => {});
};
async function pick(name, m) {
  const own = named(m);
  const shown = [name, ...[...document.querySelectorAll("[data-widget-slot]")].flatMap((e) => (e.dataset.needs || e.dataset.widgetSlot).split(" "))];
  const carries = (mod) => shown.every((w) => mod.widgets.includes(w));
  if (carries(own)) return own;
  const fetched = ahead.find(carries);
  if (fetched) return fetched;
  list = list || fetch(at(m.dataset.modules)).then((r) => r.json());
  list.catch(() => { list = null; });
  const all = await list;
  return all.find(carries) || all.find((mod) => mod.widgets.includes(name)) || own;
}
function start(mod) {
  if (!loading.has(mod.js)) {
    const wasm = at(mod.wasm);
    const compiled = window.ieCourseCompile ? window.ieCourseCompile(wasm) : Promise.resolve(wasm);
    const js = Promise.all([import(at(mod.js)), compiled]).then(async ([glue, module]) => {
      const instance = glue.instance();
      await instance.default({ module_or_path: module });
      return instance;
    });
    js.catch(() => loading.delete(mod.js));
    loading.set(mod.js, js);
  }
  return loading.get(mod.js);
}
async function load(name) {
  const m = document.querySelector('meta[name="ie-course-widgets"]');
  if (!m) throw new Error("this build has no widgets module");
  const mod = pick(name, m);
  const [js] = await Promise.all([mod.then(start), mod.then((x) => styles(x.css || m.dataset.css))]);
  return js;
}
function restart() {
  stopped = false;
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
  if (earlyDone && (stopped || late || early.every((e) => filled.has(e)))) { setTimeout(earlyDone, 0); earlyDone = null; }
}
window.ieCourseEarly = {
  ready() {
    const app = document.getElementById("app"), h = innerHeight;
    if (!app || !document.querySelector('meta[name="ie-course-widgets"]')) return;
    for (const el of app.querySelectorAll("[data-widget-slot]")) {
      const box = el.getBoundingClientRect();
      if (box.bottom > -h && box.top < 2 * h) early.push(el);
    }
    if (!early.length) return;
    addEventListener("ie-course-notice", hold);
    setTimeout(() => { late = true; settle(); }, 3000);
    const p = new Promise((ok) => { earlyDone = () => { focused = document.activeElement; ok(); }; });
    for (const el of early) mount_widget(el, el.dataset.widgetSlot, el.dataset.params);
    return p;
  },
  started() {
    removeEventListener("ie-course-notice", hold);
    for (const detail of held.splice(0)) dispatchEvent(new CustomEvent("ie-course-notice", { detail }));
  },
};
function adopt(el, name, params) {
  const i = early.findIndex((e) => !e.isConnected && e.dataset.widgetSlot === name && e.dataset.params === params);
  if (i < 0) return false;
  const from = early.splice(i, 1)[0], was = mounted.get(from);
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
function step() {
  if (stepping) return;
  stepping = true;
  setTimeout(() => {
    stepping = false;
    for (const e of [...waiting.keys()]) if (!e.isConnected) { waiting.delete(e); if (watch) watch.unobserve(e); }
    const all = [...waiting.keys()], el = all.find((e) => near.has(e)) || all[0];
    if (!el) return;
    const w = waiting.get(el);
    waiting.delete(el);
    if (watch) watch.unobserve(el);
    const box = el.getBoundingClientRect(), keep = box.top < 0;
    if (keep) el.style.contentVisibility = "visible";
    filled.add(el);
    if (!stopped) { try { w.m.mount_widget(el, w.name, w.params); } catch (e) { failed(el, e); } }
    if (keep) { const grew = el.getBoundingClientRect().bottom - box.bottom; if (grew) scrollBy(0, grew); }
    settle();
    if (waiting.size) step();
  }, 0);
}
export function mount_widget(el, name, params) {
  if (adopt(el, name, params)) return;
  for (const gone of [...mounted.keys()].filter((e) => !e.isConnected && !early.includes(e))) mounted.delete(gone);
  mounted.set(el, { name, params });
  if (stopped) { notice(el); return; }
  load(name).then((m) => {
    waiting.set(el, { m, name, params });
    if (watch) { watch.unobserve(el); watch.observe(el); }
    if (!watch || scrollY === 0) step();
  }).catch((e) => failed(el, e));
}
"#)]
extern "C" {
    /// Loads the page's widgets module (once) and mounts widget `name` with `params` (JSON pairs) in `el`.
    fn mount_widget(el: &web_sys::HtmlElement, name: &str, params: &str);
    /// Makes sure what the widget the build drew in `el` needs is in the page: the widgets'
    /// stylesheet, and the script that answers the diagrams (`style/diagrams.js`, named in the
    /// widgets `<meta>` as `data-diagrams`), which takes the diagram in. A page that shows one
    /// from the start links both in its head; after a move in the app, this loads them.
    pub fn drawn_shown(el: &web_sys::Element);
}

/// A placeholder that the widgets module fills with the live widget.
#[component]
pub fn WidgetSlot(
    /// The widget's directive from the lesson.
    widget: &'static WidgetUse,
) -> impl IntoView {
    let slot = NodeRef::<leptos::html::Div>::new();
    // Mounting into the page is the outside world: once the slot is in the document.
    Effect::new(move |_| {
        if let Some(el) = slot.get() {
            mount_widget(&el, widget.name, widget.params);
        }
    });
    view! {
        <div class="widget-slot" data-widget-slot=widget.name data-needs=widget.needs data-params=widget.params node_ref=slot>
            <p class="widget-loading">"Loading the interactive part\u{2026}"</p>
            // Readers without JavaScript see this instead (`style/boot.js` marks scripted pages).
            {super::without_script(|| view! {
                <p class="widget-nojs">"This interactive part needs JavaScript."</p>
            })}
        </div>
    }
}
