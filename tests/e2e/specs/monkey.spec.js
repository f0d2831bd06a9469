// The monkey: seeded random sessions over every page, doing what nobody planned. It types
// (random text, Unicode, emoji, `1e309`, `-0`, `NaN`, 10,000-character strings, HTML), pastes,
// clicks, drags, presses keys (the course's shortcuts among them), navigates, goes back and
// reloads. It fails on any page error or console error (a trapped widgets module among them), a
// stored `ie-course:` value that no longer parses, a backup written (the app found its own value
// unreadable), markup typed by the monkey that ran, or a widget that stops answering.
//
//   MONKEY_SEED=1234        replays one run (the seed of every run is printed)
//   MONKEY_SEED=random      a new run each time
//   MONKEY_TRACE=1          prints every action as it is done
//   MONKEY_ACTIONS=20000    a longer run (the default, 2,000, is spread over all pages)
const { test, expect } = require('@playwright/test');
const { lessonsOf, watchErrors, appReady, ORIGIN } = require('./course');

// The test command replays one fixed run, so that it passes or fails the same way each time;
// MONKEY_SEED=random explores.
const SEED = process.env.MONKEY_SEED === 'random'
  ? Date.now() % 2 ** 31
  : Number(process.env.MONKEY_SEED || 20261201);
const ACTIONS = Number(process.env.MONKEY_ACTIONS || 2000);

/** mulberry32: a small seeded generator, so that a seed replays a run exactly. */
function generator(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const pick = (list) => list[int(list.length)];
  return { next, int, pick };
}

const ALPHABET = [...'abcxyz019 .,-+eE%/<>&"\'\\\n\t', '½', 'é', 'ß', '٣', '漢', '🦀', '👩‍🔬', '\u202e', '\u0000', '\u00a0'];
const TEXTS = [
  '', '0', '-0', '1e309', '-1e309', 'NaN', 'Infinity', '-1', '3.14', '1e-320', '4.9e-324',
  '99999999999999999999', '18446744073709551616', '0x10', '1,000', '  42  ', '1e5', '.5', '5.',
  '½', '٣', '🦀🚀', 'Ünïcödé ✓', 'ℌ𝔢𝔩𝔩𝔬', '\u202eRTL', 'a\tb\nc',
  '<img src=x onerror="window.__monkey=1">', '<script>window.__monkey=1</script>',
  '"; DROP TABLE users; --', 'SELECT * FROM users;', 'pass\nfail\npass', '{"v":1,"data":[]}',
];
const KEYS = [
  'Tab', 'Shift+Tab', 'Enter', 'Escape', 'Space', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown',
  'Home', 'End', 'PageDown', 'Backspace', 'Delete', '[', ']', '/', '?', 't', 'j', 'k', '1', '2', '3',
  '4', 'Control+z', 'Control+Shift+z', 'Control+a',
];

function text(rng) {
  const roll = rng.next();
  if (roll < 0.5) return rng.pick(TEXTS);
  if (roll < 0.55) return Array.from({ length: 10_000 }, () => rng.pick(ALPHABET)).join('');
  return Array.from({ length: rng.int(40) }, () => rng.pick(ALPHABET)).join('');
}

/** Marks what can be acted on (visible, enabled, on this origin) and says what each is. Each
 * survey's marks carry its own number (`round`): a mark from an older survey can come back into
 * the page (the shell keeps the pre-rendered lesson text, marks and all, when it starts), and it
 * must not be taken for this survey's. */
let rounds = 0;
const survey = async (page) => {
  const round = ++rounds;
  const targets = await page.evaluate(([origin, round]) => {
    const seen = [];
    document.querySelectorAll('[data-monkey]').forEach((e) => e.removeAttribute('data-monkey'));
    const all = document.querySelectorAll('input, textarea, select, button, a[href], [tabindex], summary, svg');
    for (const e of all) {
      const box = e.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || e.disabled || e.closest('[inert]')) continue;
      if (e.matches('input[type="file"]')) continue;
      if (e.matches('a[href]') && new URL(e.href, document.baseURI).origin !== origin) continue;
      if (e.matches('a[download], a[href^="blob:"], a[href^="data:"]')) continue;
      const kind = e.matches('input:not([type="checkbox"]):not([type="radio"]):not([type="range"]), textarea')
        ? 'field'
        : e.matches('select') ? 'select' : e.matches('input[type="range"], svg') ? 'drag' : 'click';
      e.setAttribute('data-monkey', `${round}-${seen.length}`);
      const name = e.dataset.testid || e.getAttribute('aria-label') || e.id || e.tagName.toLowerCase();
      seen.push({ kind, name, options: kind === 'select' ? [...e.options].map((o) => o.value) : [] });
    }
    return seen;
  }, [ORIGIN, round]);
  return { round, targets };
};

/** One random action; what an element no longer allows (it moved, it left) is not a failure.
 * `seen` keeps the last survey for a few actions (a survey measures the whole page). */
async function act(page, rng, pages, seen) {
  const roll = rng.next();
  // Every call on an element is bounded: a stale survey names elements that have gone, and a
  // locator without a timeout would wait for them for ever.
  const quick = { timeout: 150 };
  // A move is given ten seconds: a page that never arrives fails the checks that follow.
  const move = { timeout: 10_000 };
  let done = '';
  try {
    if (roll < 0.015) {
      const to = rng.pick(pages);
      done = `goto ${to}`;
      await page.goto(to, move);
    } else if (roll < 0.0225) {
      done = 'back';
      await page.goBack(move);
    } else if (roll < 0.03) {
      done = 'reload';
      await page.reload(move);
    } else if (roll < 0.15) {
      const key = rng.pick(KEYS);
      done = `press ${key}`;
      await page.keyboard.press(key);
    } else {
      if (!seen.targets || seen.age++ >= 5) Object.assign(seen, await survey(page), { age: 0 });
      const { targets, round } = seen;
      if (targets.length === 0) return 'nothing to act on';
      const i = rng.int(targets.length);
      const target = targets[i];
      const el = page.locator(`[data-monkey="${round}-${i}"]`);
      done = `${target.kind} ${target.name}`;
      if (target.kind === 'field') {
        const value = text(rng);
        done += ` ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}… (${value.length})` : value)}`;
        if (process.env.MONKEY_TRACE) console.log(`  ${new URL(page.url()).pathname} about to: ${done}`);
        if (rng.next() < 0.3) {
          await el.focus(quick);
          await el.evaluate((e, v) => {
            const data = new DataTransfer();
            data.setData('text/plain', v);
            const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
            if (e.dispatchEvent(event)) document.execCommand('insertText', false, v);
          }, value, quick);
        } else {
          await el.fill(value, quick);
        }
        if (rng.next() < 0.3) await el.press(rng.pick(['Enter', 'Tab', 'ArrowUp', 'ArrowDown']), quick);
      } else if (target.kind === 'select' && target.options.length) {
        const option = rng.pick(target.options);
        done += ` ${option}`;
        await el.selectOption(option, quick);
      } else if (target.kind === 'drag') {
        const box = await el.boundingBox(quick);
        if (box) {
          const at = () => [box.x + rng.next() * box.width, box.y + rng.next() * box.height];
          await page.mouse.move(...at());
          await page.mouse.down();
          await page.mouse.move(...at(), { steps: 3 });
          await page.mouse.up();
        }
      } else {
        if (process.env.MONKEY_TRACE) console.log(`  ${new URL(page.url()).pathname} about to: ${done}`);
        await el.click({ ...quick, noWaitAfter: true });
      }
    }
  } catch (e) {
    if (!/Timeout|detached|not visible|not an? |outside of the viewport|intercepts pointer|not editable|did not find|navigat|Target closed|interrupted|ERR_ABORTED|context was destroyed/i.test(String(e))) {
      throw e;
    }
    done += ' (not possible)';
  }
  // Moves off the course (an address typed by the monkey) come back.
  if (!page.url().startsWith(ORIGIN)) await page.goto(rng.pick(pages), move);
  if (roll < 0.03 || page.url() !== seen.url) Object.assign(seen, { targets: null, url: page.url() });
  return `${done} on ${new URL(page.url()).pathname}`;
}

/** Where a page that stopped answering is busy: pauses its script through the DevTools
 * protocol and names the frames (a wasm frame names its module). */
async function busyIn(page) {
  try {
    const cdp = await page.context().newCDPSession(page);
    const paused = new Promise((r) => cdp.once('Debugger.paused', r));
    await cdp.send('Debugger.enable');
    await cdp.send('Debugger.pause');
    const event = await Promise.race([paused, new Promise((r) => setTimeout(() => r(null), 10_000))]);
    if (!event) return '  (it could not be paused)';
    return event.callFrames
      .slice(0, 25)
      .map((f) => `  ${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.location.lineNumber}:${f.location.columnNumber}`)
      .join('\n');
  } catch (e) {
    return `  (no stack: ${e})`;
  }
}

/** What must hold after a stretch of actions. */
async function checkSound(page, errors, label) {
  expect(errors, `${label}: page or console errors`).toEqual([]);
  const read = () => page.evaluate(() => {
    const bad = [];
    const backups = [];
    for (const key of Object.keys(localStorage)) {
      if (!key.startsWith('ie-course:')) continue;
      if (key.startsWith('ie-course:backup:')) { backups.push(key); continue; }
      try { JSON.parse(localStorage.getItem(key)); } catch { bad.push(key); }
    }
    const slots = [...document.querySelectorAll('[data-widget-slot]')];
    return {
      bad,
      backups,
      ran: window.__monkey === 1,
      stopped: document.querySelectorAll('[data-testid="widget-stopped"]').length,
      unmounted: slots.filter((s) => !s.querySelector('[data-widget], .widget-error, .widget-loading')).length,
    };
  });
  // The last action may have started a navigation that lands only now (a link, Back, a reload):
  // the checks are then made on the page it brings, once that has loaded.
  let state;
  for (let tries = 1; ; tries++) {
    try {
      state = await read();
      break;
    } catch (e) {
      if (tries >= 3 || !/Execution context was destroyed|navigation/i.test(String(e))) throw e;
      await page.waitForLoadState('load');
    }
  }
  expect(errors, `${label}: page or console errors after the navigation`).toEqual([]);
  expect(state.bad, `${label}: stored values that no longer parse`).toEqual([]);
  expect(state.backups, `${label}: backups written`).toEqual([]);
  expect(state.ran, `${label}: markup typed by the monkey ran`).toBe(false);
  expect(state.stopped, `${label}: widgets stopped`).toBe(0);
  expect(state.unmounted, `${label}: empty widget slots`).toBe(0);
}

const SESSIONS = 11;

/** One page's session: `count` actions from `home`, then the checks. */
async function session(page, home, pages, seed, count, errors) {
  const rng = generator(seed);
  console.log(`monkey: ${home}, seed ${seed} (MONKEY_SEED=${SEED}), ${count} actions`);
  await page.goto(home);
  await appReady(page);
  const recent = [];
  const seen = { targets: null, age: 0, url: page.url() };
  const last = () => `; the last actions:\n  ${recent.join('\n  ')}`;
  for (let i = 0; i < count; i++) {
    const acted = await Promise.race([
      act(page, rng, pages, seen),
      new Promise((r) => setTimeout(() => r(null), 30_000)),
    ]);
    if (acted === null) {
      expect(false, `${home}: an action got no answer in 30 s (seed ${seed}); the page was busy in:\n${await busyIn(page)}${last()}`).toBe(true);
    }
    recent.push(acted);
    if (process.env.MONKEY_TRACE) console.log(`${home} ${i + 1}: ${recent[recent.length - 1]}`);
    // A page that no longer runs a script within 20 s has hung.
    const answered = await Promise.race([
      page.evaluate(() => true).catch(() => true),
      new Promise((r) => setTimeout(() => r(false), 20_000)),
    ]);
    if (!answered) {
      expect(false, `${home}: the page stopped answering (seed ${seed}); it was busy in:\n${await busyIn(page)}${last()}`).toBe(true);
    }
    if (recent.length > 12) recent.shift();
    if (errors.length) break;
    if (i % 50 === 49) await checkSound(page, errors, `${home} after ${i + 1} actions (seed ${seed})${last()}`);
  }
  await checkSound(page, errors, `${home} at the end (seed ${seed})${last()}`);
  // Still answering: a reload brings the page back with its widgets mounted and no error.
  await page.reload();
  await appReady(page);
  await expect(page.locator('[data-widget-slot] .widget-loading')).toHaveCount(0, { timeout: 15_000 });
  await checkSound(page, errors, `${home} after a reload (seed ${seed})`);
}

test.describe('monkey', () => {
  test.describe.configure({ mode: 'parallel' });
  // The pages (the title page, the glossary, the print page and every lesson, whose slugs come
  // from the built title page) are dealt round the sessions; the actions are shared evenly.
  for (let n = 0; n < SESSIONS; n++) {
    test(`monkey session ${n + 1} of ${SESSIONS}`, async ({ page }) => {
      const errors = watchErrors(page);
      const dialogs = generator(SEED + n);
      page.on('dialog', (d) => (dialogs.next() < 0.5 ? d.accept() : d.dismiss()).catch(() => {}));
      await page.goto('/');
      await appReady(page);
      const lessons = await lessonsOf(page);
      const pages = ['/', '/glossary/', '/print/', ...lessons.map((l) => `/${l.slug}/`)];
      const mine = pages.filter((_, i) => i % SESSIONS === n);
      test.skip(mine.length === 0, 'fewer pages than sessions');
      const count = Math.ceil(ACTIONS / pages.length);
      test.setTimeout(60_000 + mine.length * count * 400);
      for (const home of mine) {
        const seed = (SEED + pages.indexOf(home) * 7919) % 2 ** 31;
        await session(page, home, pages, seed, count, errors);
      }
    });
  }
});
