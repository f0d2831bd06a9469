// Answers the diagrams the build draws (src/app/diagrams.rs), which need no wasm. A page that
// shows one loads this module from its <head> (it runs once the page is parsed, and takes in
// every diagram the page holds); after a move in the app the widget loader imports it by the same
// address (so it is the same instance) and hands it each diagram the shell shows (`watch`, from
// `drawn_shown` in js/loader.js).
// 1. Layout: a diagram carries both layouts in <template>s; a line of script in the page puts in
//    the one the window's width suggests as the page is read (js/diagram-layout.js, which the
//    build writes after each diagram), and this script does the same for a diagram that came with a
//    fetched page (a script set through innerHTML does not run). One layout is then drawn and
//    the other waits in its <template>. Below 520 px of box it takes the narrow one; focus and
//    the selected node carry over. Each diagram's box is watched by a ResizeObserver, whose
//    reports come after layout and before paint.
// 2. Nodes: a button node (role="button") is selected by a click, Enter or Space: it is marked
//    pressed, and its explanation (from the diagram's details <template>) fills the detail panel.
//    A link node (the chapter map) shows its explanation on focus or under a moving pointer, and
//    opens inside the app when the shell takes the move (the same event as the widgets use),
//    else as a link.
var NARROW_BELOW = 520;
var NAVIGATE = "ie-course-navigate";

function show(d, id) {
  var tpl = d.querySelector("template.diagram-details");
  var text = tpl && tpl.content.querySelector('[data-for="' + id + '"]');
  var panel = d.querySelector(".diagram-detail");
  if (!text || !panel) return;
  d.setAttribute("data-selected", id);
  panel.replaceChildren(text.cloneNode(true));
  mark(d);
}

function mark(d) {
  var id = d.getAttribute("data-selected");
  d.querySelectorAll('.diagram-box > svg [role="button"][data-node]').forEach(function (n) {
    n.setAttribute("aria-pressed", String(n.getAttribute("data-node") === id));
  });
}

function fit(d, width) {
  if (!(width > 0)) return;
  var want = width < NARROW_BELOW ? "narrow" : "wide";
  var box = d.querySelector(".diagram-box");
  var svg = box && box.querySelector(":scope > svg");
  var kept = box && box.querySelector(':scope > template[data-layout="' + want + '"]');
  if (!svg && kept) {
    // Not put in yet: both layouts wait in their templates.
    var first = kept.content.querySelector("svg");
    var none = box.querySelector(":scope > noscript");
    if (none) none.remove();
    if (!first) return;
    box.insertBefore(first, kept);
    kept.remove();
    mark(d);
    return;
  }
  if (!svg || !kept || svg.getAttribute("data-layout") === want) return;
  var next = kept.content.querySelector("svg");
  if (!next) return;
  var focused = svg.contains(document.activeElement) && document.activeElement.getAttribute("data-node");
  kept.setAttribute("data-layout", svg.getAttribute("data-layout"));
  box.insertBefore(next, kept);
  kept.content.replaceChildren(svg);
  mark(d);
  if (focused) {
    var again = next.querySelector('[data-node="' + focused + '"]');
    if (again) again.focus();
  }
}

var sized = window.ResizeObserver
  ? new ResizeObserver(function (entries) {
      entries.forEach(function (e) { fit(e.target, e.contentRect.width); });
    })
  : null;

// Takes in every diagram inside `root`. Until its box is measured, a diagram takes the layout
// the window's width suggests (the page's margins and the card's padding take about 77 px on a
// phone), as the page's own line of script does: reading it lays nothing out, and the first
// layout is then most often the one kept (an SVG's text is slow to lay out).
export function watch(root) {
  if (!sized || !root || root.nodeType !== 1) return;
  var found = root.matches(".diagram") ? [root] : root.querySelectorAll(".diagram");
  for (var i = 0; i < found.length; i++) {
    var d = found[i];
    if (!d.hasAttribute("data-fitted")) {
      d.setAttribute("data-fitted", "");
      fit(d, window.innerWidth - 77);
    }
    sized.observe(d);
  }
}
watch(document.body);

function nodeOf(ev) {
  var t = ev.target;
  var n = t && t.closest && t.closest("[data-node]");
  var d = n && n.closest(".diagram");
  return d ? { n: n, d: d, link: n.localName === "a" } : null;
}

function open(a) {
  var href = a.getAttribute("href");
  var ask = new CustomEvent(NAVIGATE, { detail: href, cancelable: true });
  // The shell cancels the event when it made the move itself.
  if (window.dispatchEvent(ask)) location.href = new URL(href, document.baseURI).href;
}

document.addEventListener("click", function (ev) {
  var hit = nodeOf(ev);
  if (!hit) return;
  if (!hit.link) { show(hit.d, hit.n.getAttribute("data-node")); return; }
  if (ev.button === 0 && !(ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey)) {
    ev.preventDefault();
    open(hit.n);
  }
});
document.addEventListener("keydown", function (ev) {
  var hit = (ev.key === "Enter" || ev.key === " ") && nodeOf(ev);
  if (!hit || ev.defaultPrevented) return;
  ev.preventDefault();
  if (hit.link) open(hit.n);
  else show(hit.d, hit.n.getAttribute("data-node"));
});
function preview(ev) {
  var hit = nodeOf(ev);
  var id = hit && hit.link && hit.n.getAttribute("data-node");
  if (id && hit.d.getAttribute("data-selected") !== id) show(hit.d, id);
}
document.addEventListener("focusin", preview);
// A moving pointer, not mouseover: a page that scrolls or lays out again under a still pointer
// sends mouseover too, which would replace what the focused link shows.
document.addEventListener("mousemove", preview);
