// The lessons' prose as the page holds it (`src/app/prose.rs` declares what Rust calls here).
// The page the app starts on keeps its text as the browser parsed it: the app moves those nodes
// into its view (`adopt_prose`) rather than reading them out as HTML and parsing them again,
// which on a long lesson was a large part of the app's start. A page fetched for a move in the
// app gives its text as HTML (the build's, compiled from our Markdown), and names the widgets
// module its lesson needs, which goes to the widget loader as soon as the page is read.
//
// A page's fetch starts when the reader presses on a link to it (`pointerdown`, before the click
// that follows). Only a page not fetched yet, and not the title page (which has no text to
// fetch), is asked for early, once; if that early fetch fails, it is forgotten, and the click
// asks again.
import { ahead } from "./loader.js";

const kept = new Map();

function collect(doc, keep) {
  const out = {};
  for (const el of doc.querySelectorAll("article[data-lesson], section.print-lesson[id], [data-prose]")) {
    const key = el.dataset.lesson || el.dataset.prose || el.id, blocks = Array.from(el.querySelectorAll(".prose, .drawn"));
    if (keep) blocks.forEach((p, i) => kept.set(key + "\n" + i, p));
    out[key] = blocks.map((p) => keep ? "" : p.innerHTML);
  }
  return JSON.stringify(out);
}

/** Each prose block of the page the app starts on, by lesson: kept here, an empty string each. */
export function prose_in_page() {
  return collect(document, true);
}

/** Moves block `i` of `key`'s prose, as the start page held it (or the view that last showed
 * it), into `el`; false when the page held no such block. */
export function adopt_prose(el, key, i) {
  const from = kept.get(key + "\n" + i);
  if (!from) return false;
  if (from !== el) {
    el.replaceChildren();
    while (from.firstChild) el.appendChild(from.firstChild);
    kept.set(key + "\n" + i, el);
  }
  return true;
}

const early = new Map();
const seen = new Set([new URL("index.html", location.href).href, new URL("index.html", document.baseURI).href]);
addEventListener("pointerdown", (e) => {
  const a = e.button === 0 && !e.ctrlKey && !e.metaKey && !e.shiftKey && !e.altKey && e.target.closest && e.target.closest("a[href]");
  if (!a || a.target || a.hasAttribute("download") || a.origin !== location.origin || !a.pathname.endsWith("/")) return;
  const href = new URL("index.html", a.href).href;
  if (seen.has(href) || early.has(href)) return;
  const r = fetch(href);
  // A failed early fetch is forgotten, not reported: the click asks again.
  r.catch(() => { if (early.get(href) === r) early.delete(href); });
  early.set(href, r);
}, { capture: true, passive: true });

/** The text of the page at `url` (relative to the site's base); rejects with an Error. */
export async function fetch_text(url) {
  const href = new URL(url, document.baseURI).href, got = early.get(href);
  early.delete(href);
  seen.add(href);
  const r = await (got || fetch(href));
  if (!r.ok) throw new Error(r.status + " " + r.statusText);
  return r.text();
}

/** The prose of a fetched page's HTML, by lesson, as HTML; its widgets module starts loading. */
export function prose_in_html(html) {
  const doc = new DOMParser().parseFromString(html, "text/html"), widgets = doc.querySelector('meta[name="ie-course-widgets"]');
  if (widgets) ahead(widgets);
  return collect(doc);
}

const tipShown = ".term-wrap:hover,.term-wrap:focus-within";
const tipBack = () => {
  for (const w of document.querySelectorAll("[data-tip-off]")) if (!w.matches(tipShown)) w.removeAttribute("data-tip-off");
};

/** From now on, Escape hides the glossary tooltips open under the pointer or the focus, until
 * both have left the term (WCAG 1.4.13: content on hover or focus can be dismissed). */
export function dismissable_tips() {
  addEventListener("keydown", (e) => {
    if (e.key === "Escape") for (const w of document.querySelectorAll(tipShown)) w.setAttribute("data-tip-off", "");
  });
  addEventListener("focusin", tipBack);
  addEventListener("mouseover", tipBack);
}
