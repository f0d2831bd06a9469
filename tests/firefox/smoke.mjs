// Smoke run of the built site in a second browser engine: Debian's Firefox ESR, driven by
// puppeteer-core over WebDriver BiDi (no browser download). It serves dist/ with the same plain
// static server as the Playwright suite, on a port of its own, and walks what a reader does:
// the title page, a deep link to a heading, a reload that keeps the reader's place, a calculator,
// the mini eval, a recall review, a reload that keeps all of them, a long paste into the mini
// eval (held beside its field, then imported), and a diagram drawn by the build. Any page
// error, console error or `unreachable` fails the run.
//
//   node tests/firefox/smoke.mjs            (after a release build into dist/)
//
// FIREFOX_PORT moves the server (default: E2E_PORT + 2, or 4175); FIREFOX_BIN the browser
// (default /usr/bin/firefox-esr); FIREFOX_DIST the site (default dist/). FIREFOX_LAB_RUN=full
// has the measuring lab's step make the full run (M at full size, and L where memory allows)
// instead of the quick one, and print its whole table: the figures a closing note quotes.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { describe, test, before, after, afterEach } from 'node:test';
import puppeteer from 'puppeteer-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.resolve(root, process.env.FIREFOX_DIST || 'dist');
const port = Number(process.env.FIREFOX_PORT || (process.env.E2E_PORT ? Number(process.env.E2E_PORT) + 2 : 4175));
const origin = `http://127.0.0.1:${port}`;
const executablePath = process.env.FIREFOX_BIN || '/usr/bin/firefox-esr';
const WAIT = 20_000;

// What the calculator is given and must answer: DeepSeek-R1's 671B at FP16 (the course's
// Example 1 table): 1,342 GB of weights, 17 GPUs of 80 GB.
const PARAMS = '671';
const WEIGHT_GB = '1,342 GB';
const GPUS = '17 GPUs';
const LESSON = 'model-selection';

let server;
let browser;
let page;
let profile;
/** Console errors, uncaught exceptions, CSP violations and any mention of `unreachable`. */
const errors = [];

/** Serves dist/ as the Playwright suite does (python3 -m http.server) and waits until it answers. */
async function serve() {
  assert.ok(existsSync(path.join(dist, 'index.html')), `no build in ${dist}: run a release build first`);
  // The port must be free: Python's server shares a port with another listener silently.
  await new Promise((ok, fail) => {
    const probe = createServer()
      .once('error', (e) => fail(new Error(`port ${port} is taken (${e.code}): set FIREFOX_PORT`)))
      .listen(port, '127.0.0.1', () => probe.close(ok));
  });
  server = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', dist], {
    stdio: 'ignore',
  });
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      const res = await fetch(`${origin}/`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (server.exitCode !== null) throw new Error(`the static server on port ${port} exited (${server.exitCode})`);
    if (Date.now() > deadline) throw new Error(`the static server on port ${port} did not answer`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function launch() {
  profile = mkdtempSync(path.join(tmpdir(), 'ie-firefox-'));
  browser = await puppeteer.launch({
    browser: 'firefox',
    protocol: 'webDriverBiDi',
    executablePath,
    headless: true,
    // A fresh profile each run; puppeteer fills it with its test preferences (no updates, no
    // telemetry, remote settings pointed nowhere). These keep the sandbox quiet and offline.
    userDataDir: profile,
    extraPrefsFirefox: {
      'browser.safebrowsing.malware.enabled': false,
      'browser.safebrowsing.phishing.enabled': false,
      'network.captive-portal-service.enabled': false,
      'network.connectivity-service.enabled': false,
      'extensions.getAddons.cache.enabled': false,
      'media.gmp-manager.url': '',
      'toolkit.telemetry.enabled': false,
    },
    env: { ...process.env, MOZ_HEADLESS: '1' },
    defaultViewport: { width: 1280, height: 800 },
    timeout: 60_000,
  });
  page = await browser.newPage();
  page.setDefaultTimeout(WAIT);
  await page.evaluateOnNewDocument(() => {
    window.__smokeWatch = true;
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`);
    });
  });
  page.on('console', (m) => {
    const text = m.text();
    if (m.type() === 'error' || /unreachable/i.test(text)) errors.push(`console.${m.type()}: ${text}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e && e.message ? e.message : e}`));
}

/** Waits until the app (not only the pre-rendered page) is running (as tests/e2e's appReady). */
async function appReady() {
  await page.waitForSelector('[data-testid="theme-toggle"]', { visible: true });
}

/** Waits until the text of `selector` (trimmed) satisfies `want` (a string: equal; a RegExp:
 * matches), and fails with what was there instead. */
async function waitText(selector, want) {
  const pattern = want instanceof RegExp ? want.source : null;
  const exact = want instanceof RegExp ? null : want;
  try {
    await page.waitForFunction(
      (sel, exact, pattern) => {
        const el = document.querySelector(sel);
        if (!el) return false;
        const text = el.textContent.trim();
        return pattern === null ? text === exact : new RegExp(pattern).test(text);
      },
      { timeout: WAIT },
      selector,
      exact,
      pattern,
    );
  } catch (e) {
    const now = await page.$eval(selector, (el) => el.textContent.trim()).catch(() => '(no such element)');
    throw new Error(`${selector}: wanted ${want}, found ${JSON.stringify(now)} (${e.message})`);
  }
}

async function valueOf(selector) {
  return page.$eval(selector, (el) => el.value);
}

const widget = (name) => `[data-widget="${name}"]`;
const calc = (id) => `${widget('weight-memory')} [data-testid="${id}"]`;
const evalCase = (name) => `${widget('mini-eval')} li.eval-case[data-case="${name}"]`;
const evalOut = (id) => `${widget('mini-eval')} [data-testid="${id}"]`;
const recall = (id) => `${widget('recall')} [data-testid="${id}"]`;

describe('Firefox ESR smoke run', { timeout: 400_000 }, () => {
  let lessons = [];
  let dueBefore = 0;

  before(
    async () => {
      await serve();
      await launch();
      console.log(`# ${await browser.version()} on ${origin}`);
    },
    { timeout: 90_000 },
  );

  after(async () => {
    await browser?.close().catch(() => {});
    server?.kill();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  afterEach(() => {
    assert.deepEqual(errors.splice(0), [], 'page errors, console errors or unreachable');
  });

  test('the title page loads and the app starts', async () => {
    await page.goto(`${origin}/`, { waitUntil: 'load' });
    await appReady();
    // The watch itself works in this engine: a console error, an uncaught exception and a
    // script the page's Content-Security-Policy blocks all reach it.
    assert.equal(await page.evaluate(() => window.__smokeWatch), true, 'the watch runs in the page');
    await page.evaluate(() => {
      console.error('smoke probe: console');
      setTimeout(() => {
        throw new Error('smoke probe: uncaught');
      });
      document.head.append(Object.assign(document.createElement('script'), { textContent: 'void 0' }));
    });
    const seen = (probes) => [
      probes.some((e) => e.startsWith('console.error: smoke probe: console')),
      probes.some((e) => e.startsWith('page error:') && e.includes('smoke probe: uncaught')),
      probes.some((e) => e.startsWith('console.error: CSP violation: script-src')),
    ];
    for (const deadline = Date.now() + WAIT; !seen(errors).every(Boolean) && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const probes = errors.splice(0);
    assert.deepEqual(seen(probes), [true, true, true], `probes seen: ${JSON.stringify(probes)}`);
    // (Firefox also reports the blocked script itself, as a page error.)
    const others = probes.filter((e) => !/smoke probe|CSP violation|Content-Security-Policy/.test(e));
    assert.deepEqual(others, [], 'nothing but the probes');
    lessons = await page.$$eval('nav#toc ol a', (links) =>
      links.map((a) => ({
        slug: new URL(a.href).pathname.split('/').filter(Boolean).pop(),
        title: (a.querySelector('.toc-title') || a).textContent.trim(),
      })),
    );
    assert.ok(lessons.length >= 8, `contents lists ${lessons.length} lessons`);
    assert.ok(lessons.some((l) => l.slug === LESSON), `no ${LESSON} lesson in the contents`);
    assert.match(await page.title(), /Inference Engineering/);
  });

  test('every page of the contents, the glossary and the print page mounts its widgets', async () => {
    assert.ok(lessons.length >= 8, 'the contents were read');
    for (const slug of [...lessons.map((l) => l.slug), 'glossary', 'print']) {
      await page.goto(`${origin}/${slug}/`, { waitUntil: 'load' });
      await appReady();
      const slots = await page.$$eval('[data-widget-slot]', (s) => s.length);
      try {
        await page.waitForFunction(
          () => [...document.querySelectorAll('[data-widget-slot]')].every((s) => s.querySelector('[data-widget]')),
          { timeout: WAIT },
        );
      } catch (e) {
        const waiting = await page.$$eval('[data-widget-slot]', (s) =>
          s.filter((x) => !x.querySelector('[data-widget]')).map((x) => `${x.dataset.widgetSlot}: ${x.textContent.trim()}`),
        );
        throw new Error(`/${slug}/: ${waiting.length} of ${slots} widgets not mounted: ${waiting.join('; ')} (${e.message})`);
      }
      assert.deepEqual(errors, [], `/${slug}/`);
      // No worker runs the wasm first here: Firefox compiles a whole module as it arrives, so
      // the page starts at once (src/prerender.rs, `warm`; Chromium's tests check it has one).
      const fetched = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
      assert.ok(!fetched.some((f) => /\/warmup-[0-9a-f]+\.js$/.test(f)), `/${slug}/ fetched the warm-up worker`);
    }
  });

  test('a deep link opens its lesson scrolled to the heading', async () => {
    const target = lessons[3];
    // A heading well below the first screen, so that landing on it means the page scrolled.
    await page.goto(`${origin}/${target.slug}/`, { waitUntil: 'load' });
    await appReady();
    const id = await page.$$eval('[data-testid="lesson"] h2[id]', (hs) => {
      const below = hs.find((h) => h.getBoundingClientRect().top + window.scrollY > 1.5 * window.innerHeight);
      return (below || hs[hs.length - 1]).id;
    });
    assert.ok(id, 'the lesson has headings with ids');
    await page.goto(`${origin}/`, { waitUntil: 'load' });
    await appReady();
    const url = `${origin}/${target.slug}/#${id}`;
    await page.goto(url, { waitUntil: 'load' });
    await appReady();
    assert.equal(page.url(), url);
    await waitText('[data-testid="lesson"] h1', target.title);
    await page.waitForFunction(
      (id) => {
        const r = document.getElementById(id)?.getBoundingClientRect();
        return !!r && r.top >= 0 && r.top < window.innerHeight && window.scrollY > 0;
      },
      { timeout: WAIT },
      id,
    );
  });

  test('a reload keeps the reader where they were, not on the heading in the address', async () => {
    // The page is the deep link's: the reader moves on to another heading, then reloads.
    const other = await page.$$eval('[data-testid="lesson"] h2[id]', (hs) => {
      const at = hs.findIndex((h) => h.id === decodeURIComponent(location.hash.slice(1)));
      const h = hs[at + 1] && hs[at + 1].getBoundingClientRect().top > window.innerHeight ? hs[at + 1] : hs[hs.length - 1];
      h.scrollIntoView();
      return h.id;
    });
    await new Promise((r) => setTimeout(r, 300));
    const top = () => page.evaluate((id) => Math.round(document.getElementById(id).getBoundingClientRect().top), other);
    const before = await top();
    await page.reload({ waitUntil: 'load' });
    await appReady();
    await new Promise((r) => setTimeout(r, 500));
    // Where it was on the screen (Firefox brings the page back at the same distance from its top,
    // where the widget places above stand in at another height: it left the reader 245 px past
    // their heading until js/boot.js put the heading back), not on the address's heading or
    // the top.
    await page.waitForFunction(
      ([id, was]) => {
        const r = document.getElementById(id)?.getBoundingClientRect();
        return !!r && Math.abs(r.top - was) <= 2;
      },
      { timeout: WAIT },
      [other, before],
    );
  });

  test('the weight-memory calculator answers an input', async () => {
    await page.goto(`${origin}/${LESSON}/`, { waitUntil: 'load' });
    await appReady();
    // The widgets module mounts after the text: wait for the calculator's defaults (70B, FP16).
    await waitText(calc('weight-gb'), '140 GB');
    await page.locator(calc('weight-params')).fill(PARAMS);
    await waitText(calc('weight-gb'), WEIGHT_GB);
    await waitText(calc('weight-gpus'), GPUS);
    await waitText(calc('weight-gpu-fraction'), /^16\.78\b/);
    // The address carries the input (written after a quiet spell): that is what a reload keeps.
    await page.waitForFunction((p) => new URLSearchParams(location.search).get('wm.params') === p, { timeout: WAIT }, PARAMS);
  });

  test('a lesson reached in the app loads the module its page names, and its widgets answer', async () => {
    await page.goto(`${origin}/overview/`, { waitUntil: 'load' });
    await appReady();
    await page.waitForFunction(() => !!document.querySelector('[data-widget-slot] [data-widget]'), { timeout: WAIT });
    await page.evaluate((lesson) => document.querySelector(`nav#toc a[href$="${lesson}/"]`).click(), LESSON);
    await waitText(calc('weight-gb'), '140 GB');
    const fetched = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname.split('/').pop()),
    );
    assert.ok(fetched.some((f) => /^ie-widgets-model-[0-9a-f]+_bg\.wasm$/.test(f)), fetched.join(' '));
    assert.ok(!fetched.some((f) => /^ie-widgets-[0-9a-f]+\.json$/.test(f)), 'the list of modules was not needed');
    await page.locator(calc('weight-params')).fill(PARAMS);
    await waitText(calc('weight-gb'), WEIGHT_GB);
  });

  test('the mini eval: a toggled verdict moves the accuracy and the decision', async () => {
    await waitText(evalOut('eval-acc-candidate'), '90%');
    await waitText(evalOut('eval-verdict'), "rejected: critical case 'emails of admins' regressed");
    // The candidate passes the critical case by hand: no regression left, accepted.
    await page.locator(`${evalCase('emails of admins')} [data-testid="eval-candidate-pass"]`).click();
    await waitText(evalOut('eval-acc-candidate'), '100%');
    await waitText(evalOut('eval-verdict'), /^accepted: candidate 100% \(10\/10\) vs baseline 90% \(9\/10\)/);
    assert.equal(await valueOf(`${evalCase('emails of admins')} [data-testid="eval-candidate-verdict"]`), 'pass');
  });

  test('a recall review: reveal a card, grade it', async () => {
    await waitText(recall('cards-due'), /^\d+ cards?$/);
    dueBefore = parseInt(await page.$eval(recall('cards-due'), (el) => el.textContent), 10);
    assert.ok(dueBefore > 0, 'cards are due on a fresh profile');
    const question = await page.$eval(recall('card-question'), (el) => el.textContent.trim());
    assert.equal(await page.$(recall('card-answer')), null, 'the answer is hidden before reveal');
    await page.locator(recall('card-reveal')).click();
    await page.waitForSelector(recall('card-answer'), { visible: true });
    await page.locator(recall('card-grade-good')).click();
    await page.waitForFunction((sel) => !document.querySelector(sel), { timeout: WAIT }, recall('card-answer'));
    await waitText(recall('cards-due'), `${dueBefore - 1} card${dueBefore - 1 === 1 ? '' : 's'}`);
    if (dueBefore > 1) {
      await page.waitForFunction(
        (sel, q) => document.querySelector(sel)?.textContent.trim() !== q,
        { timeout: WAIT },
        recall('card-question'),
        question,
      );
    }
    const stored = JSON.parse(await page.evaluate(() => localStorage.getItem('ie-course:recall')));
    assert.equal(stored.data.log.length, 1);
    assert.equal(stored.data.log[0].grade, 3);
  });

  test('a reload keeps the calculator input, the eval edit and the review', async () => {
    assert.equal(new URL(page.url()).searchParams.get('wm.params'), PARAMS, `the address keeps the input: ${page.url()}`);
    await page.reload({ waitUntil: 'load' });
    await appReady();
    await waitText(calc('weight-gb'), WEIGHT_GB);
    assert.equal(await valueOf(calc('weight-params')), PARAMS);
    await waitText(calc('weight-gpus'), GPUS);
    await waitText(evalOut('eval-acc-candidate'), '100%');
    await waitText(evalOut('eval-verdict'), /^accepted:/);
    await waitText(recall('cards-due'), `${dueBefore - 1} card${dueBefore - 1 === 1 ? '' : 's'}`);
  });

  test('a paste too long to show is held beside the mini eval field, and Import reads it', async () => {
    const field = evalOut('eval-import');
    await page.$eval(field, (el) => el.scrollIntoView({ block: 'center' }));
    // A click first: Firefox writes the clipboard only after a user action.
    await page.click(field);
    await page.evaluate(() => {
      const lines = [];
      for (let i = 0; i < 20_000; i++) lines.push(i % 7 === 0 ? 'pass\tfail' : 'pass\tpass');
      return navigator.clipboard.writeText(lines.join('\n'));
    });
    await page.keyboard.down('Control');
    await page.keyboard.press('v');
    await page.keyboard.up('Control');
    await waitText(evalOut('eval-import-held'), /^20,000 lines \(200 KB\) pasted, kept out of the box/);
    assert.equal(await valueOf(field), '', 'the field stays empty');
    await page.locator(evalOut('eval-import-apply')).click();
    await waitText(evalOut('eval-import-message'), /replaced the eval with 20000 cases/);
    await waitText(evalOut('eval-page-status'), '1–20 of 20,000 cases · page 1 of 1,000');
    await waitText(evalOut('eval-acc-candidate'), '85.7%');
    assert.equal(await page.$(evalOut('eval-import-held')), null, 'the note goes once imported');
  });

  test('a diagram the build drew answers a click and a key, and takes its narrow layout on a phone', async () => {
    const d = '[data-testid="diagram-decision-path"]';
    const detail = `${d} [data-testid="diagram-detail"]`;
    // Brought into view first: the locator's own scrolling does not see an SVG group here.
    await page.$eval(d, (el) => el.scrollIntoView());
    await page.locator(`${d} [data-node="deploy"]`).click();
    await waitText(detail, /quantization/);
    assert.equal(await page.$eval(`${d} [data-node="deploy"]`, (el) => el.getAttribute('aria-pressed')), 'true');
    await page.$eval(`${d} [data-node="shortlist"]`, (el) => el.focus());
    await page.keyboard.press('Enter');
    await waitText(detail, /one job they do well/);
    await page.setViewport({ width: 375, height: 740 });
    await page.waitForFunction((sel) => document.querySelector(`${sel} svg`)?.getAttribute('data-layout') === 'narrow', { timeout: WAIT }, d);
    assert.equal(await page.$eval(`${d} [data-node="shortlist"]`, (el) => el.getAttribute('aria-pressed')), 'true');
  });

  test('the measuring lab: a quick run in a worker fills the table and writes the golden sample', async () => {
    await page.setViewport({ width: 1280, height: 900 });
    const lab = (id) => `${widget('decode-lab')} [data-testid="${id}"]`;
    await page.goto(`${origin}/measure-it-yourself/`, { waitUntil: 'load' });
    await appReady();
    await page.$eval(widget('decode-lab'), (el) => el.scrollIntoView());
    await page.waitForSelector(`${lab('lm-start')}:not([disabled])`, { timeout: WAIT });
    const before = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => /\/lab-[0-9a-f]+\//.test(e.name)).length);
    assert.equal(before, 0, 'nothing of the lab is fetched before Start');
    const full = process.env.FIREFOX_LAB_RUN === 'full';
    await page.select(lab('lm-run'), full ? 'full' : 'quick');
    await page.locator(lab('lm-start')).click();
    await page.waitForFunction((sel) => /^100% · Done/.test(document.querySelector(sel)?.textContent ?? ''), { timeout: full ? 600_000 : 150_000 }, lab('lm-progress'));
    await waitText(lab('lm-bandwidth-out'), /^\d+(\.\d)? GB\/s from main memory/);
    const cells = ['lm-mb-per-token', 'lm-ceiling', 'lm-tps', 'lm-share'];
    const rows = await page.$$eval(`${widget('decode-lab')} [data-testid="lm-row"]`, (els, ids) =>
      els.map((el) => [el.dataset.model, el.dataset.precision, ...ids.map((id) => el.querySelector(`[data-testid="${id}"]`)?.textContent ?? '')]), cells,
    );
    const six = ['tiny f32', 'tiny int8', 'tiny int4', 'm f32', 'm int8', 'm int4'];
    const names = rows.map(([m, p]) => `${m} ${p}`);
    assert.deepEqual(names.slice(0, 6), six);
    // L comes only in a full run, and only where the device has the memory.
    assert.ok(names.slice(6).every((n) => full && n.startsWith('l ')), names.join(', '));
    for (const [, , , , tps] of rows) assert.match(tps, /^\d[\d,]*(\.\d+)? tok\/s/);
    const golden = JSON.parse(readFileSync(path.join(root, 'models/manifest.json'), 'utf8')).models.teacher.golden_sample;
    assert.equal(await page.$eval(lab('lm-sample'), (el) => el.textContent), golden);
    // The table the closing note quotes: what this browser measured.
    console.log(`# lab in Firefox (${full ? 'full' : 'quick'} run): ${await page.$eval(lab('lm-bandwidth-out'), (el) => el.textContent)}; ${rows.map((r) => r.join(' | ')).join('; ')}`);
  });

  test('real distillation in 1.3: the teacher and six students score as the manifest says and write its golden samples', async () => {
    await page.setViewport({ width: 1280, height: 900 });
    const card = widget('distill-lab');
    const kd = (id) => `${card} [data-testid="${id}"]`;
    await page.goto(`${origin}/model-selection/`, { waitUntil: 'load' });
    await appReady();
    // Its place first: a widget this far down mounts as the reader comes near it.
    await page.$eval('[data-widget-slot="distill-lab"]', (el) => el.scrollIntoView());
    await page.waitForSelector(card, { timeout: WAIT });
    await page.$eval(card, (el) => el.scrollIntoView());
    await page.waitForSelector(`${kd('kd-start')}:not([disabled])`, { timeout: WAIT });
    await page.locator(kd('kd-start')).click();
    await page.waitForFunction((sel) => /^100% · Done/.test(document.querySelector(sel)?.textContent ?? ''), { timeout: 150_000 }, kd('kd-progress'));
    const rows = await page.$$eval(`${card} [data-testid="kd-row"]`, (els) => els.map((el) => ({
      student: el.dataset.student, fraction: el.dataset.fraction,
      loss: el.querySelector('[data-testid="kd-loss"]').textContent,
      tps: el.querySelector('[data-testid="kd-tps"]').textContent,
      sample: el.querySelector('[data-testid="kd-sample"]').textContent,
    })));
    const models = JSON.parse(readFileSync(path.join(root, 'models/manifest.json'), 'utf8')).models;
    const name = ({ student, fraction }) => (student === 'teacher' ? 'teacher' : `student-${student}-${Math.round(Number(fraction) * 100)}`);
    assert.deepEqual(rows.map(name), ['teacher', 'student-hard-1', 'student-soft-1', 'student-hard-10', 'student-soft-10', 'student-hard-100', 'student-soft-100']);
    for (const row of rows) {
      const entry = models[name(row)];
      assert.ok(Math.abs(parseFloat(row.loss) - entry.heldout_bits_per_char.f32) < 0.002, `${name(row)}: ${row.loss}`);
      assert.match(row.tps, /^\d[\d,]*(\.\d+)? tok\/s/);
      assert.equal(row.sample, entry.golden_sample, name(row));
    }
    console.log(`# distillation in Firefox: ${rows.map((r) => `${name(r)} ${r.loss} ${r.tps}`).join('; ')}`);
  });
});
