// What the benchmark's scripts share: their command line, the median they report, and the marks
// a page's load is timed by.

/** The command line's arguments. */
export const argv = process.argv.slice(2);

/** The value after `--name` on the command line, or `fallback`. */
export const opt = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};

/**
 * The networks a cold load can be taken on (`--network NAME`; none by default, where on
 * 127.0.0.1 bytes and round trips cost next to nothing): `mobile` is Lighthouse's mobile preset
 * as DevTools applies it to each request (slow 4G: 562.5 ms of latency, 1,474.56 kbps down,
 * 675 kbps up), where what a page fetches, and in how many round trips, shows as time. For
 * CDP's `Network.emulateNetworkConditions`.
 */
export const NETWORKS = {
  mobile: { offline: false, latency: 562.5, downloadThroughput: (1474.56 * 1024) / 8, uploadThroughput: (675 * 1024) / 8 },
};

/** The median of `xs` (the lower of the middle two), or undefined for none. */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};

/**
 * Run in a page before its own scripts (Playwright's `addInitScript`, puppeteer's
 * `evaluateOnNewDocument`): marks in the page's own clock (ms after navigation start) in
 * `window.__bench`: the shell running (its theme toggle exists only once the app has mounted),
 * the first widget mounted, every widget place holding its widget, and, where the browser reports
 * them, long tasks and the largest contentful paint.
 */
export function watchLoad() {
  const b = (window.__bench = { longtasks: [], app: null, widget: null, widgets: null, lcp: null });
  const types = (window.PerformanceObserver && PerformanceObserver.supportedEntryTypes) || [];
  if (types.includes('longtask')) {
    new PerformanceObserver((l) => { for (const e of l.getEntries()) b.longtasks.push(e.duration); }).observe({ type: 'longtask', buffered: true });
  }
  if (types.includes('largest-contentful-paint')) {
    new PerformanceObserver((l) => { const es = l.getEntries(); b.lcp = es[es.length - 1].startTime; }).observe({ type: 'largest-contentful-paint', buffered: true });
  }
  const check = () => {
    if (b.app === null && document.querySelector('[data-testid="theme-toggle"]')) b.app = performance.now();
    if (b.widget === null && document.querySelector('section.widget[data-widget]')) b.widget = performance.now();
    const slots = document.querySelectorAll('[data-widget-slot]');
    if (b.widgets === null && slots.length && [...slots].every((s) => s.querySelector('section.widget[data-widget]'))) b.widgets = performance.now();
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
}
