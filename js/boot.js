// Runs before the page paints (a classic script in every page's <head>, which blocks the parser
// on purpose: the theme must be set before the first paint):
// 1. applies the reader's stored theme; the app (src/app/theme.rs) owns the value, this only
//    reads it and ignores anything it cannot parse;
// 2. registers the service worker that keeps the course readable offline (`js/sw.js`, which the
//    build writes at the site's base as sw.js, with the build's own list of files);
// 3. marks the page as scripted (`<html class="js">`), so a widget's place says "Loading" here
//    and "needs JavaScript" where scripts do not run;
// 4. keeps a heading the page has jumped to in place while the page above it settles
//    (`window.ieCourseHold`, which the app's router calls for every jump it makes, and which
//    holds the heading in the address from the first frame, before the app has started);
// 5. on a page the browser brings back (a reload, Back, Forward), puts the heading the reader
//    was at back where it was on their screen, and holds it there.
(function () {
  document.documentElement.classList.add("js");
  try {
    var raw = window.localStorage.getItem("ie-course:theme");
    var theme = raw && JSON.parse(raw).data;
    if (theme === "light" || theme === "dark") {
      document.documentElement.setAttribute("data-theme", theme);
    }
  } catch (e) {
    /* storage blocked or value unreadable: the system setting applies */
  }
  if ("serviceWorker" in navigator && window.isSecureContext) {
    window.addEventListener("load", function () {
      var base = document.baseURI;
      navigator.serviceWorker.register(new URL("sw.js", base).href, { scope: new URL("./", base).pathname })
        .catch(function () { /* offline reading is a bonus: the course works without it */ });
    });
  }

  // Holds `el` where the page has just scrolled it while the page above it settles: a widget
  // place above the reader changes height as it is laid out and as its widget mounts, which a
  // browser without scroll anchoring (Safari) does not correct, and Chromium's anchoring misses
  // when the change comes in the frame after the jump. Each change of the body's size
  // scrolls by what `el` moved, before the frame is painted. The hold ends when the reader acts
  // (wheel, touch, click, key, focus), when someone else scrolls the page away from `el` (a
  // script, a scrollbar; the widget loader's own scrolling, which makes up for a widget that
  // grew above the reader, moves the page toward it), after five seconds, or at the next call;
  // `null` only ends it.
  var end = null, called = false;
  // What the reader does (the first four also mark a reader who moved before a page came back).
  var ACTS = ["wheel", "touchstart", "pointerdown", "keydown", "focusin"];
  function hold(el) {
    called = true;
    if (end) end();
    if (!el || !window.ResizeObserver) return;
    var body = document.body, top = el.getBoundingClientRect().top, at = window.scrollY, i;
    // How far `el` is off its place, or null when a scroll since the hold last looked took it
    // away: `el` then moved against that scroll, as a scroll alone moves it.
    function off() {
      var by = el.getBoundingClientRect().top - top, scrolled = window.scrollY - at;
      at = window.scrollY;
      return Math.abs(by) >= 1 && by * scrolled < 0 ? null : by;
    }
    var keep = new ResizeObserver(function () {
      var by = off();
      if (by === null) return stop();
      if (el.isConnected && Math.abs(by) >= 1) {
        window.scrollBy(0, by);
        at = window.scrollY;
      }
    });
    function scrolled() {
      if (off() === null) stop();
    }
    var timer = setTimeout(function () { stop(); }, 5000);
    function stop() {
      keep.disconnect();
      clearTimeout(timer);
      window.removeEventListener("scroll", scrolled);
      for (var j = 0; j < ACTS.length; j++) window.removeEventListener(ACTS[j], stop, true);
      end = null;
    }
    end = stop;
    window.addEventListener("scroll", scrolled, { passive: true });
    for (i = 0; i < ACTS.length; i++) window.addEventListener(ACTS[i], stop, { capture: true, passive: true });
    keep.observe(body);
  }
  window.ieCourseHold = hold;
  // A deep link: the browser jumps to the heading as the page comes in, and the app, which
  // starts once the text has painted, jumps again; in between, this holds it. Not when the
  // browser brought the page back (a reload, Back, Forward): it puts the reader where they were.
  // The app's start asks the same (`router::brought_back`).
  var nav = window.performance && performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
  var back = !!nav && (nav.type === "reload" || nav.type === "back_forward");
  window.ieCourseBroughtBack = back;
  // The reader's place, noted as the page goes away (in this tab's sessionStorage): the first
  // heading of the lesson on their screen (else the last above it) and how far down the screen
  // it was. The browser brings a page back at the same distance from its top, but the page is
  // not the same height above the reader until its widgets have mounted (a widget's place
  // stands in at 600 px), and only Chromium makes up for that: Firefox left the reader 245 px
  // past their heading in 1.3. So once the page has loaded, the heading goes back to its place
  // on the screen, unless the reader has moved meanwhile.
  var PLACE = "ie-course:place";
  function note() {
    var hs = document.querySelectorAll("[data-testid=lesson] :is(h1,h2,h3)[id]"), i, top, at = null;
    for (i = 0; i < hs.length; i++) {
      if (hs[i].closest("[data-widget-slot]")) continue; /* a widget's own: not in the page the build wrote */
      top = hs[i].getBoundingClientRect().top;
      if (top >= window.innerHeight) break;
      at = { path: location.pathname, id: hs[i].id, top: Math.round(top) };
      if (top >= 0) break;
    }
    try {
      if (at) window.sessionStorage.setItem(PLACE, JSON.stringify(at));
      else window.sessionStorage.removeItem(PLACE);
    } catch (e) {
      /* storage blocked or full: the browser's own restoring is all there is */
    }
  }
  window.addEventListener("pagehide", note);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") note();
  });
  if (back) {
    var acted = false, k;
    var act = function () { acted = true; };
    for (k = 0; k < 4; k++) window.addEventListener(ACTS[k], act, { capture: true, passive: true, once: true });
    window.addEventListener("load", function () {
      requestAnimationFrame(function () {
        var at, el;
        try {
          at = JSON.parse(window.sessionStorage.getItem(PLACE));
        } catch (e) {
          return; /* storage blocked or the note unreadable: the browser's place stands */
        }
        // A note from this page, with a place a screen could have shown (a few screens above
        // it, when the reader was deep in a long part without a heading).
        el = at && at.path === location.pathname && typeof at.id === "string" && typeof at.top === "number"
          && at.top < window.innerHeight && at.top > -10 * window.innerHeight && document.getElementById(at.id);
        if (!el || acted || called) return;
        var off = el.getBoundingClientRect().top - at.top;
        if (Math.abs(off) >= 1) window.scrollBy(0, off);
        hold(el);
      });
    });
  }
  if (location.hash.length > 1 && !back) {
    document.addEventListener("DOMContentLoaded", function () {
      requestAnimationFrame(function () {
        var el;
        try {
          el = document.getElementById(decodeURIComponent(location.hash.slice(1)));
        } catch (e) {
          return; /* not an id this page could hold */
        }
        if (el && !called) {
          el.scrollIntoView();
          hold(el);
        }
      });
    });
  }
})();
