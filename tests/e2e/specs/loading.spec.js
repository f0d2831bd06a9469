// How a page loads: the pre-rendered text paints first and the wasm comes after it; a lesson
// reached inside the app brings its text from its own page; search fetches its index when
// first opened. Failures say so in the page and can be retried.
const { test, expect } = require('@playwright/test');
const { lessonsOf, appReady, watchErrors } = require('./course');

// page.route sees only the page's own requests, not those a service worker makes for it.
test.use({ serviceWorkers: 'block' });

test('the pre-rendered text is the first and largest paint; the wasm loads after it', async ({ page }) => {
  await page.addInitScript(() => {
    const marks = (window.__marks = { lcp: null, app: null });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (marks.lcp === null) marks.lcp = e.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new MutationObserver(() => {
      if (marks.app === null && document.querySelector('[data-testid="theme-toggle"]')) marks.app = performance.now();
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto('/model-selection/');
  await appReady(page);
  await page.locator('section.widget[data-widget]').first().waitFor();
  const r = await page.evaluate(() => ({
    ...window.__marks,
    wasm: performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm')).map((e) => e.startTime),
    scripts: performance.getEntriesByType('resource').map((e) => new URL(e.name)).filter((u) => /\/ie-widgets[\w-]*\.js$/.test(u.pathname)).map((u) => u.pathname + u.search),
    preloads: document.querySelectorAll('link[rel="preload"], link[rel="modulepreload"]').length,
  }));
  expect(r.preloads).toBe(0);
  expect(r.lcp).not.toBeNull();
  // One wasm, fetched after the text was painted: the page's widgets module, which starts the
  // shell in one instance and serves the widgets from another.
  expect(r.wasm.length).toBe(1);
  for (const start of r.wasm) expect(start).toBeGreaterThanOrEqual(r.lcp);
  // Its script is fetched once too, under one address: it gives each its own instance.
  expect(r.scripts).toHaveLength(1);
  expect(r.scripts[0]).not.toContain('?');
  expect(r.app).toBeGreaterThan(r.lcp);
});

test('a lesson opened in the app brings its text from its page; a failed fetch can be retried', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await appReady(page);
  const lessons = await lessonsOf(page);
  const target = lessons[1];
  let fail = true;
  const fetched = [];
  await page.route(`**/${target.slug}/index.html`, (route) => {
    fetched.push(route.request().url());
    return fail ? route.abort() : route.continue();
  });
  await page.locator('nav#toc').getByRole('link', { name: target.title }).click();
  const lesson = page.getByTestId('lesson');
  await expect(lesson.locator('h1')).toHaveText(target.title);
  await expect(lesson.getByRole('alert')).toContainText('could not be loaded');
  // Nothing to read yet: no pager, no "mark as read", and the lesson is not ticked.
  await expect(page.getByTestId('mark-read')).toHaveCount(0);
  await expect(page.locator('nav#toc li.read')).toHaveCount(0);

  fail = false;
  await lesson.getByRole('button', { name: 'try again' }).click();
  await expect(lesson.getByRole('alert')).toHaveCount(0);
  await expect(page.getByTestId('mark-read')).toBeVisible();
  expect(fetched.length).toBe(2);
  // The same text and widgets as the lesson's own pre-rendered page.
  const fromApp = await lesson.locator('.prose').allInnerTexts();
  const slots = await lesson.locator('[data-widget-slot]').count();
  const direct = await page.context().newPage();
  await direct.route('**/*.js', (route) => route.abort());
  await direct.goto(`/${target.slug}/`);
  expect(await direct.locator('article .prose').allInnerTexts()).toEqual(fromApp);
  expect(await direct.locator('article .widget-slot').count()).toBe(slots);
  expect(fromApp.join(' ').length).toBeGreaterThan(500);
  await direct.close();
  // Errors here are the aborted fetch's; nothing else went wrong.
  expect(errors.filter((e) => !/ERR_FAILED|Failed to load resource/.test(e))).toEqual([]);
});

test('search fetches its index when first opened, and says so when it cannot', async ({ page }) => {
  await page.goto('/');
  await appReady(page);
  let fail = true;
  await page.route('**/search.json', (route) => (fail ? route.abort() : route.continue()));
  await page.getByTestId('search-button').click();
  await page.getByTestId('search-input').fill('distillation');
  const dialog = page.getByTestId('search-dialog');
  await expect(dialog.getByRole('status')).toContainText('Search is not available right now');
  await expect(page.getByTestId('search-results').locator('li')).toHaveCount(0);
  // Opening search again tries again.
  fail = false;
  await page.keyboard.press('Escape');
  await page.getByTestId('search-button').click();
  await expect(page.getByTestId('search-results').locator('li').first()).toBeVisible();
  await expect(dialog.getByRole('status')).toContainText('found');
});

for (const width of [1280, 375]) {
  test(`nothing on the chapter map page moves when its widget arrives (${width} px)`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(() => {
      window.__shift = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto('/chapter-map/');
    const map = page.locator('section.widget[data-widget="chapter-map"]');
    await map.waitFor();
    await expect(map.locator('svg')).toBeVisible();
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => window.__shift)).toBeLessThan(0.01);
    // The reserved room is not more than the widget needs: no gap below it.
    const [slot, widget] = await map.evaluate((el) => [el.parentElement.getBoundingClientRect().height, el.getBoundingClientRect().height]);
    expect(slot).toBeCloseTo(widget, 0);
    await context.close();
  });
}

test('the glossary opened in the app names itself while it loads or when its fetch fails', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await appReady(page);
  let fail = true;
  await page.route('**/glossary/index.html', (route) => (fail ? route.abort() : route.continue()));
  await page.locator('nav#toc').getByRole('link', { name: 'Glossary' }).click();
  const glossary = page.getByTestId('glossary');
  await expect(glossary.getByRole('alert')).toContainText('This glossary\u2019s text could not be loaded');
  await expect(glossary).not.toContainText('lesson\u2019s text');
  fail = false;
  await glossary.getByRole('button', { name: 'try again' }).click();
  await expect(glossary.getByRole('alert')).toHaveCount(0);
  await expect(glossary.locator('[id^="term-"]').first()).toBeVisible();
  // Errors here are the aborted fetch's; nothing else went wrong.
  expect(errors.filter((e) => !/ERR_FAILED|Failed to load resource/.test(e))).toEqual([]);
});

test('a widget asked for with a bad name or parameters says so in its place; the others still work', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/model-selection/');
  await appReady(page);
  const card = page.locator('section.widget[data-widget="weight-memory"]').first();
  await card.waitFor();
  // Mount three more through the widgets module the page has loaded, as the shell does.
  await page.evaluate(async () => {
    const meta = document.querySelector('meta[name="ie-course-widgets"]');
    const m = await import(new URL(meta.content, document.baseURI).href);
    const cases = [
      ['bad-key', 'weight-memory', '[["params","8"],["colour","red"]]'],
      ['bad-json', 'weight-memory', '{"params": "8"}'],
      ['bad-name', 'weight-memroy', '[]'],
    ];
    for (const [id, name, params] of cases) {
      const el = document.createElement('div');
      el.id = id;
      document.querySelector('article').append(el);
      m.mount_widget(el, name, params);
    }
  });
  await expect(page.locator('#bad-key').getByRole('alert')).toHaveText(
    'The interactive part \u201cweight-memory\u201d could not start: it has no setting \u201ccolour\u201d (it takes params, precision, bits, gpu-gb).',
  );
  await expect(page.locator('#bad-key .widget-error')).toHaveCount(1);
  await expect(page.locator('#bad-json').getByRole('alert')).toContainText('\u201cweight-memory\u201d could not start: its settings could not be read (');
  await expect(page.locator('#bad-name').getByRole('alert')).toContainText('called \u201cweight-memroy\u201d');
  // None of them mounted a widget, and the page's own widget still answers.
  await expect(page.locator('#bad-key, #bad-json, #bad-name').locator('section.widget')).toHaveCount(0);
  await card.getByTestId('weight-params').fill('8');
  await expect(card.getByTestId('weight-gb')).toHaveText('16 GB');
  expect(errors).toEqual([]);
});

// Each lesson loads the widgets module with its own widgets (src/widgets/modules.rs), and that
// module's stylesheet with it (the rules of its widgets only); the title page loads neither. A
// lesson reached in the app loads the module its widgets need, and its stylesheet, and those
// widgets work, styled.
test('a page loads only its own widgets module and, in the app, the next page the one it needs', async ({ page }) => {
  const errors = watchErrors(page);
  const fetched = [];
  page.on('request', (req) => fetched.push(new URL(req.url()).pathname.split('/').pop()));
  const modules = () => fetched.filter((f) => /^ie-widgets-.*_bg\.wasm$/.test(f));
  const sheets = () => fetched.filter((f) => /^widgets-[0-9a-f]+\.css$/.test(f));

  await page.goto('/');
  await appReady(page);
  await page.waitForLoadState('networkidle');
  expect(modules()).toEqual([]);
  expect(sheets()).toEqual([]);

  await page.goto('/overview/');
  await appReady(page);
  await page.locator('section.widget[data-widget="recall"]').waitFor();
  await page.locator('section.widget[data-widget="five-inputs"]').waitFor();
  expect(modules()).toHaveLength(1);
  expect(modules()[0]).toMatch(/^ie-widgets-overview-/);
  expect(sheets()).toHaveLength(1);
  // The widget is styled: a card with its border radius, not unstyled markup.
  const radius = await page.locator('section.widget').first().evaluate((el) => getComputedStyle(el).borderRadius);
  expect(radius).toBe('14px');

  // In the app, to a lesson whose widgets the overview's module does not carry.
  await page.locator('nav#toc a[href$="shared-or-dedicated/"]').first().click();
  const card = page.locator('section.widget[data-widget="break-even"]');
  await card.waitFor();
  expect(modules()).toHaveLength(2);
  expect(modules()[1]).toMatch(/^ie-widgets-shared-/);
  expect(sheets()).toHaveLength(2);
  expect(sheets()[1]).not.toBe(sheets()[0]);
  // The break-even calculator's own rules came with its module: its example note is styled.
  const noteSize = await card.locator('.widget-example-note').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  const cardSize = await card.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  expect(noteSize).toBeLessThan(cardSize);
  // The fetched page named its module: the list of every module was not needed.
  expect(fetched.filter((f) => /^ie-widgets-[0-9a-f]+\.json$/.test(f))).toEqual([]);
  await expect(page.locator('section.widget[data-widget="recall"]')).toHaveCount(1);
  await expect(card.getByTestId('break-even-api-cost')).toHaveText('$600');
  await card.getByTestId('break-even-volume').fill('2000000000');
  await expect(card.getByTestId('break-even-api-cost')).toHaveText('$1,200');

  // Back to the overview: its module is already loaded, nothing more is fetched.
  await page.goBack();
  await page.locator('section.widget[data-widget="five-inputs"]').waitFor();
  expect(modules()).toHaveLength(2);
  expect(errors).toEqual([]);
});

// The page a move in the app fetches for its text names its widgets module: the module is
// fetched and compiled while the page is drawn, not once its widget places ask for it.
test('in the app, a lesson’s widgets module is on its way before the lesson is drawn', async ({ page }) => {
  const errors = watchErrors(page);
  const modules = [];
  page.on('request', (req) => { if (/ie-widgets[^/]*_bg\.wasm$/.test(req.url())) modules.push(req.url()); });
  await page.goto('/overview/');
  await appReady(page);
  await page.locator('section.widget[data-widget="recall"]').waitFor();
  await page.waitForLoadState('networkidle');
  expect(modules).toHaveLength(1);
  // A page with no widget (the glossary) names no module worth loading.
  await page.locator('a[href$="glossary/"]').first().click();
  await expect(page.locator('h1')).toHaveText('Glossary');
  await page.waitForLoadState('networkidle');
  expect(modules).toHaveLength(1);
  const at = await page.evaluate(() => new Promise((done) => {
    const seen = {};
    new MutationObserver((_, watcher) => {
      if (document.querySelector('[data-widget-slot]')) {
        watcher.disconnect();
        seen.slot = performance.now();
      }
    }).observe(document, { childList: true, subtree: true });
    const timer = setInterval(() => {
      const wasm = performance.getEntriesByType('resource').find((e) => /ie-widgets-model-[0-9a-f]+_bg\.wasm$/.test(e.name));
      if (wasm && seen.slot) {
        clearInterval(timer);
        done({ wasm: wasm.startTime, slot: seen.slot });
      }
    }, 20);
    document.querySelector('nav#toc a[href$="model-selection/"]').click();
  }));
  expect(at.wasm, JSON.stringify(at)).toBeLessThan(at.slot);
  await expect(page.locator('section.widget[data-widget="weight-memory"]')).toBeVisible();
  expect(errors).toEqual([]);
});

// A press on a link (pointerdown) starts fetching the page it leads to, before the click that
// follows; the click's move uses that fetch. A page already fetched is not asked for again.
test('pressing on a lesson link starts fetching its page before the click, and only once', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await appReady(page);
  await page.waitForLoadState('networkidle');
  const asked = [];
  page.on('request', (req) => { if (new URL(req.url()).pathname.endsWith('/why-size-wins/index.html')) asked.push(req.url()); });
  const link = page.locator('nav#toc a[href$="why-size-wins/"]');
  const title = (await link.locator('.toc-title').textContent()).trim();
  await link.hover();
  await page.mouse.down();
  await expect.poll(() => asked.length).toBe(1);
  expect(new URL(page.url()).pathname).toBe('/');
  await page.mouse.up();
  await expect(page.locator('[data-testid="lesson"] h1')).toContainText(title);
  await page.locator('section.widget[data-widget="decode-ceiling"]').waitFor();
  await page.waitForLoadState('networkidle');
  expect(asked).toHaveLength(1);
  // Back on the title page, the same press and click ask for nothing: the text is held.
  await page.goBack();
  await appReady(page);
  await link.click();
  await expect(page.locator('[data-testid="lesson"] h1')).toContainText(title);
  await page.waitForLoadState('networkidle');
  expect(asked).toHaveLength(1);
  expect(errors).toEqual([]);
});

test('a press whose early fetch fails leaves no error, and the click that follows fetches the page again', async ({ page }) => {
  const thrown = [];
  page.on('pageerror', (e) => thrown.push(String(e)));
  await page.goto('/');
  await appReady(page);
  await page.waitForLoadState('networkidle');
  const asked = [];
  page.on('request', (req) => { if (new URL(req.url()).pathname.endsWith('/why-size-wins/index.html')) asked.push(req.url()); });
  await page.route('**/why-size-wins/index.html', (route) => route.abort());
  const link = page.locator('nav#toc a[href$="why-size-wins/"]');
  const title = (await link.locator('.toc-title').textContent()).trim();
  // A press, then a release away from the link: no click, no move.
  await link.hover();
  await page.mouse.down();
  await expect.poll(() => asked.length).toBe(1);
  await page.mouse.move(5, 600);
  await page.mouse.up();
  await page.waitForTimeout(300);
  expect(new URL(page.url()).pathname).toBe('/');
  await page.unroute('**/why-size-wins/index.html');
  await link.click();
  await expect(page.locator('[data-testid="lesson"] h1')).toContainText(title);
  expect(asked).toHaveLength(2);
  expect(thrown).toEqual([]);
});

// A place still waiting for its widget is laid out only near the screen (content-visibility:
// auto), as drawn ones are, standing in at 600 px. A widget, once there, is laid out wherever it
// is: Chrome's autofill lays out every field's widget a moment after fields appear, in one long
// task if they had been skipped. The card fills its place, with the place's margin and none of
// its own.
test('a place waiting for its widget is laid out near the screen only; a widget is laid out wherever it is, and printing shows every one', async ({ page }) => {
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  // First the page the build wrote, its wasm held back: no widget mounts.
  await page.route('**/*.wasm', () => {});
  await page.goto('/model-selection/', { waitUntil: 'load' });
  const place = page.locator('[data-widget-slot="distillation"]');
  const placeShown = () => place.evaluate((el) => el.firstElementChild.checkVisibility({ contentVisibilityAuto: true }));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  expect(await placeShown()).toBe(false);
  expect(await place.evaluate((el) => el.getBoundingClientRect().height)).toBe(600);
  await place.scrollIntoViewIfNeeded();
  await expect.poll(placeShown).toBe(true);
  await page.evaluate(() => scrollTo(0, 0));
  await expect.poll(placeShown).toBe(false);
  // Printing lays out every place.
  await page.emulateMedia({ media: 'print' });
  await expect.poll(placeShown).toBe(true);
  await page.emulateMedia({ media: 'screen' });
  await expect.poll(placeShown).toBe(false);

  // Then the app: every widget mounts, and the one far below is laid out at once.
  await page.unroute('**/*.wasm');
  await page.reload();
  await appReady(page);
  const count = await page.locator('[data-widget-slot]').count();
  await expect(page.locator('[data-widget-slot] > section.widget[data-widget]')).toHaveCount(count, { timeout: 20_000 });
  await page.evaluate(() => scrollTo(0, 0));
  const card = page.locator('section.widget[data-widget="distillation"]');
  const shown = () => card.evaluate((el) => el.checkVisibility({ contentVisibilityAuto: true }));
  expect(await card.evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThan(800 * 3);
  expect(await shown()).toBe(true);
  const layout = await card.evaluate((el) => [el.getBoundingClientRect().height, el.parentElement.getBoundingClientRect().height]);
  expect(layout[0]).toBeGreaterThan(0);
  expect(layout[1]).toBe(layout[0]);
  const inset = await card.evaluate((el) => el.getBoundingClientRect().top - el.parentElement.getBoundingClientRect().top);
  expect(inset).toBe(0);
  const gap = await card.evaluate((el) => parseFloat(getComputedStyle(el.parentElement).marginTop));
  expect(gap).toBe(32);
  // Contained on the screen (an edit is laid out and painted within its place); not in print,
  // where a long widget must break across pages.
  const contain = () => card.evaluate((el) => getComputedStyle(el.parentElement).contain);
  expect(['content', 'layout style paint', 'layout paint style']).toContain(await contain());
  await page.emulateMedia({ media: 'print' });
  await expect.poll(shown).toBe(true);
  expect(await contain()).toBe('none');
  // Printed, a card is a plain box: white, with a grey border.
  const box = await card.evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).borderTopColor]);
  expect(box).toEqual(['rgb(255, 255, 255)', 'rgb(153, 153, 153)']);
  expect(errors).toEqual([]);
});

test('widgets near the screen mount first: a reader back at the loss playground gets it before the widgets above', async ({ page }) => {
  const errors = watchErrors(page);
  // The order in which the widget places get their widgets.
  await page.addInitScript(() => {
    const order = (window.__mounted = []);
    new MutationObserver(() => {
      for (const slot of document.querySelectorAll('[data-widget-slot]')) {
        const name = slot.dataset.widgetSlot;
        if (!order.includes(name) && slot.querySelector('section.widget[data-widget]')) order.push(name);
      }
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto('/model-selection/#the-loss-playground');
  await appReady(page);
  const slots = await page.locator('[data-widget-slot]').count();
  await expect.poll(() => page.evaluate(() => window.__mounted.length), { timeout: 20_000 }).toBe(slots);
  const order = await page.evaluate(() => window.__mounted);
  // The playground is on the screen; the weight calculator and the mini eval are far above it.
  expect(order.indexOf('distillation'), order.join(', ')).toBeLessThan(order.indexOf('weight-memory'));
  expect(order.indexOf('distillation'), order.join(', ')).toBeLessThan(order.indexOf('mini-eval'));
  await expect(page.locator('#the-loss-playground')).toBeInViewport();
  expect(errors).toEqual([]);
});

// Example 3's heading sits right below the mini eval, whose place is on or near the screen when
// the link lands there: the eval grows by thousands of pixels as it mounts, above the heading.
for (const width of [375, 1280]) {
  test(`a deep link just below a large widget keeps its heading on the screen while the widgets mount (${width} px)`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto('/model-selection/#example-3-fine-tuning');
    await appReady(page);
    const slots = page.locator('[data-widget-slot]');
    const count = await slots.count();
    await expect(page.locator('[data-widget-slot] section.widget[data-widget]')).toHaveCount(count, { timeout: 20_000 });
    await page.waitForTimeout(300);
    await expect(page.locator('#example-3-fine-tuning')).toBeInViewport();
    const top = await page.locator('#example-3-fine-tuning').evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeLessThan(200);
    expect(errors).toEqual([]);
    await context.close();
  });
}

test('the page’s own text is kept as the browser parsed it, and comes back after a move away without a fetch', async ({ page }) => {
  const errors = watchErrors(page);
  // A paragraph of the pre-rendered page, held before the app starts.
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => { window.__first = document.querySelector('article .prose p'); });
  });
  const fetched = [];
  page.on('request', (req) => fetched.push(new URL(req.url()).pathname));
  await page.goto('/model-selection/');
  await appReady(page);
  const text = await page.evaluate(() => window.__first.textContent);
  expect(text.length).toBeGreaterThan(40);
  // The app shows that very node, not a copy parsed again from its HTML.
  expect(await page.evaluate(() => window.__first.isConnected && !!window.__first.closest('[data-testid="lesson"] .prose'))).toBe(true);
  const before = await page.getByTestId('lesson').locator('.prose').allInnerTexts();

  await page.locator('nav#toc a[href$="overview/"]').first().click();
  await expect(page.getByTestId('lesson').locator('h1')).toHaveText(/Before you optimize/);
  await page.goBack();
  await expect(page.getByTestId('lesson').locator('h1')).toHaveText(/Model selection/);
  await expect(page.getByTestId('lesson').locator('.prose').first()).toContainText(text.trim().slice(0, 40));
  expect(await page.getByTestId('lesson').locator('.prose').allInnerTexts()).toEqual(before);
  expect(await page.evaluate(() => window.__first.isConnected)).toBe(true);
  expect(fetched.filter((p) => p.endsWith('/model-selection/index.html'))).toEqual([]);
  expect(errors).toEqual([]);
});

test('no frame shows the app header without a page: the page the build wrote stays until the app has drawn the whole of its own', async ({ page }) => {
  // The app starts in two tasks (`app::mount`): the frame out of the page, then the page for the
  // route in the build's page's place. Every frame painted, from the first, must show a page.
  await page.addInitScript(() => {
    const seen = (window.__frames = { build: 0, app: 0, bare: [] });
    const look = () => {
      const main = document.querySelector('#app main');
      if (main) {
        const app = !!document.querySelector('[data-testid="theme-toggle"]');
        if (!main.querySelector('h1')) seen.bare.push(app ? 'app' : 'build');
        else if (app) seen.app += 1;
        else seen.build += 1;
      }
      if (seen.app < 5) requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  for (const path of ['/', '/latency-and-throughput/', '/glossary/', '/model-selection/']) {
    await page.goto(path);
    await appReady(page);
    await expect.poll(() => page.evaluate(() => window.__frames.app)).toBeGreaterThanOrEqual(5);
    const frames = await page.evaluate(() => window.__frames);
    expect(frames.bare, path).toEqual([]);
    expect(frames.build, path).toBeGreaterThan(0);
  }
});

test('a widget on the screen when a lesson opens goes live before the shell, which keeps it as it is: what was typed, and the field in use', async ({ page }) => {
  const errors = watchErrors(page);
  // The moment the latency explorer first appears, still in the page the build wrote: the
  // reader types a median there and stays in the field.
  await page.addInitScript(() => {
    const seen = (window.__early = { card: null, shell: null });
    new MutationObserver(() => {
      const card = document.querySelector('[data-widget-slot] section.widget[data-widget="latency"]');
      if (!card || seen.card) return;
      seen.card = card;
      seen.shell = !!document.querySelector('[data-testid="theme-toggle"]');
      const field = card.querySelector('[data-testid="latency-median"]');
      field.focus();
      field.value = '1500';
      field.dispatchEvent(new Event('input', { bubbles: true }));
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto('/latency-and-throughput/#explore-a-skewed-sample');
  await appReady(page);
  expect(await page.evaluate(() => window.__early.shell)).toBe(false);
  // The shell's view holds that very card, in its own slot: one card, not mounted again.
  expect(await page.evaluate(() => window.__early.card.isConnected && !!window.__early.card.closest('[data-testid="lesson"] [data-widget-slot]'))).toBe(true);
  await expect(page.locator('[data-widget="latency"]')).toHaveCount(1);
  const field = page.getByTestId('latency-median');
  await expect(field).toHaveValue('1500');
  await expect(field).toBeFocused();
  const p50 = async () => parseFloat(await page.getByTestId('latency-p50').textContent());
  expect(await p50()).toBeGreaterThan(1200);
  // It goes on working under the shell, and the keys go on to the field.
  await page.keyboard.press('End');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await expect(field).toHaveValue('15');
  await page.keyboard.type('0');
  await expect(field).toHaveValue('150');
  await expect.poll(p50).toBeLessThan(1000);
  await expect(page.locator('#explore-a-skewed-sample')).toBeInViewport();
  expect(errors).toEqual([]);
});

test('at the top of a lesson the shell starts first, and the widgets further down mount after it', async ({ page }) => {
  const errors = watchErrors(page);
  await page.addInitScript(() => {
    const shellFirst = (window.__shellFirst = {});
    new MutationObserver(() => {
      for (const card of document.querySelectorAll('[data-widget-slot] section.widget[data-widget]')) {
        if (!(card.dataset.widget in shellFirst)) shellFirst[card.dataset.widget] = !!document.querySelector('[data-testid="theme-toggle"]');
      }
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto('/model-selection/');
  await appReady(page);
  await expect.poll(() => page.evaluate(() => Object.keys(window.__shellFirst).length), { timeout: 20_000 }).toBe(5);
  expect(await page.evaluate(() => window.__shellFirst)).toEqual({ 'weight-memory': true, 'mini-eval': true, distillation: true, 'distill-lab': true, recall: true });
  expect(errors).toEqual([]);
});

test('what a widget mounted before the shell has to say about stored data, the shell shows', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/recall/');
  await appReady(page);
  await page.evaluate(() => localStorage.setItem('ie-course:recall', '{"v":1,"data":'));
  await page.addInitScript(() => {
    new MutationObserver((_, mo) => {
      if (!document.querySelector('[data-widget-slot] section.widget[data-widget="recall"]')) return;
      window.__deckBeforeShell = !document.querySelector('[data-testid="theme-toggle"]');
      mo.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  await page.reload();
  await appReady(page);
  expect(await page.evaluate(() => window.__deckBeforeShell)).toBe(true);
  const notice = page.getByTestId('storage-notice');
  await expect(notice).toHaveCount(1);
  await expect(notice).toContainText('ie-course:backup:recall:');
  await expect(page.locator('[data-widget="recall"]')).toBeVisible();
  expect(errors).toEqual([]);
});

test('a lesson whose widgets stylesheet failed asks for it again; when it fails again, each widget says so', async ({ context }) => {
  // /model-selection/ shows diagrams, so its head links the widgets' stylesheet; the loader used
  // to wait for that link's `load` event, long past, and left the widgets loading for good.
  // /why-size-wins/ shows none: the start script links it as it asks for the module.
  for (const [path, widget] of [['/model-selection/', 'weight-memory'], ['/why-size-wins/', 'decode-ceiling']]) {
    for (const failures of [1, Infinity]) {
      const page = await context.newPage();
      const errors = watchErrors(page);
      let asked = 0;
      await page.route(/\/widgets-[0-9a-f]+\.css$/, (route) => (++asked <= failures ? route.abort() : route.continue()));
      await page.goto(path);
      await appReady(page);
      const card = page.locator(`[data-widget-slot] section.widget[data-widget="${widget}"]`);
      const slots = page.locator('article [data-widget-slot]');
      if (failures === 1) {
        await expect(card).toBeVisible({ timeout: 20_000 });
        // Styled: the card's border and radius come from that stylesheet, and so do the diagrams'.
        expect(await card.evaluate((el) => getComputedStyle(el).borderTopLeftRadius)).toBe('14px');
        if (path === '/model-selection/') {
          expect(await page.locator('.diagram').first().evaluate((el) => getComputedStyle(el).position)).toBe('relative');
        }
        await expect(slots.locator('.widget-loading')).toHaveCount(0);
        expect(await page.locator('link[rel="stylesheet"][href*="widgets-"]').count()).toBe(1);
      } else {
        await expect(slots.first()).toHaveClass(/widget-error/, { timeout: 20_000 });
        await expect(slots.first()).toContainText('its stylesheet did not load');
        await expect(card).toHaveCount(0);
      }
      expect(asked).toBeGreaterThan(1);
      expect(errors.filter((e) => !/ERR_FAILED|Failed to load resource/.test(e))).toEqual([]);
      await page.close();
    }
  }
});

for (const path of ['/', '/model-selection/']) {
  test(`${path}: the stylesheets are asked for with the page's first script, not once it has arrived`, async ({ page }) => {
    // A page's CSP <meta> turns Chromium's preload scanner off: a stylesheet linked after the
    // script that blocks the parser would be asked for only after that script, one more round
    // trip before the first paint. Here the script is held back until the main stylesheet is
    // asked for (five seconds at most).
    const errors = watchErrors(page);
    let sheetAsked;
    const asked = new Promise((done) => { sheetAsked = done; });
    page.on('request', (req) => { if (/\/main-[0-9a-f]+\.css$/.test(req.url())) sheetAsked(true); });
    let askedWhileHeld = null;
    await page.route(/\/boot-[0-9a-f]+\.js$/, async (route) => {
      askedWhileHeld = await Promise.race([asked, new Promise((done) => setTimeout(() => done(false), 5000))]);
      await route.continue();
    });
    await page.goto(path);
    await appReady(page);
    expect(askedWhileHeld).toBe(true);
    expect(errors).toEqual([]);
  });
}

test('after the first paint, a lesson asks for its module, the scripts it imports and the widgets stylesheet at once', async ({ page }) => {
  // Each is one request, made when the wasm is asked for: none waits for another to arrive (on
  // a phone's network, a request that waits for the module's script costs a round trip).
  await page.goto('/why-size-wins/');
  await appReady(page);
  await expect(page.locator('[data-widget-slot] section.widget[data-widget="try-it"]')).toBeVisible();
  const r = await page.evaluate(() => {
    const all = performance.getEntriesByType('resource').map((e) => ({ path: new URL(e.name).pathname, start: e.startTime, end: e.responseEnd }));
    const lcp = performance.getEntriesByType('largest-contentful-paint')[0];
    return { all, lcp: lcp ? lcp.startTime : null };
  });
  const one = (re) => {
    const found = r.all.filter((e) => re.test(e.path));
    expect(found, `${re}: ${JSON.stringify(r.all)}`).toHaveLength(1);
    return found[0];
  };
  const script = one(/\/ie-widgets-size-[0-9a-f]+\.js$/);
  const wasm = one(/\/ie-widgets-size-[0-9a-f]+_bg\.wasm$/);
  const sheet = one(/\/widgets-[0-9a-f]+\.css$/);
  const imports = r.all.filter((e) => /\/snippets\/.*\.js$/.test(e.path));
  expect(imports.length).toBeGreaterThan(0);
  for (const e of [script, sheet, ...imports]) {
    expect(e.start).toBeLessThan(wasm.end);
    expect(e.start).toBeLessThan(script.end);
    if (r.lcp !== null) expect(e.start).toBeGreaterThanOrEqual(r.lcp);
  }
  expect(await page.locator('link[rel="stylesheet"][href*="widgets-"]').count()).toBe(1);
});

/** Records, for the mini eval and the loss playground, how many rows each list held when its
 * widget first appeared (a mutation observer's first report comes at the end of the task that
 * mounted it), and at every change after (`window.__rows`). */
async function watchRows(page) {
  await page.addInitScript(() => {
    const rows = (window.__rows = {});
    const lists = { 'mini-eval': 'li.eval-case', distillation: '.distill-table tbody tr' };
    new MutationObserver(() => {
      for (const [name, sel] of Object.entries(lists)) {
        const card = document.querySelector(`[data-widget-slot] section.widget[data-widget="${name}"]`);
        if (!card) continue;
        const n = card.querySelectorAll(sel).length;
        rows[name] ??= { first: n, counts: [] };
        rows[name].counts.push(n);
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

/** How many cases the mini eval holds (its heading counts them) and how many tokens the loss
 * playground has (its note counts them). */
async function rowsOf(page) {
  const cases = (await page.locator('[data-widget="mini-eval"]').getByText(/^The cases \(\d+\)$/).textContent()).match(/\d+/)[0];
  const tokens = (await page.locator('[data-widget="distillation"]').getByText(/^\d+ tokens/).textContent()).match(/^\d+/)[0];
  return { 'mini-eval': Number(cases), distillation: Number(tokens) };
}

test('the mini eval and the loss playground draw their long lists a few rows a task, and end with every row', async ({ page }) => {
  const errors = watchErrors(page);
  await watchRows(page);
  await page.goto('/model-selection/');
  await appReady(page);
  const evalCard = page.locator('[data-widget="mini-eval"]');
  const distill = page.locator('[data-widget="distillation"]');
  const { 'mini-eval': cases, distillation: tokens } = await rowsOf(page);
  expect(cases).toBeGreaterThan(4);
  expect(tokens).toBeGreaterThan(2);
  await expect(evalCard.locator('li.eval-case')).toHaveCount(cases);
  await expect(distill.locator('.distill-table tbody tr')).toHaveCount(tokens);
  const rows = await page.evaluate(() => window.__rows);
  for (const [name, all] of [['mini-eval', cases], ['distillation', tokens]]) {
    // Some rows in the mount, the rest after it, never fewer than before.
    expect(rows[name].first, name).toBeGreaterThan(0);
    expect(rows[name].first, name).toBeLessThan(all);
    expect(rows[name].counts.every((n, i) => i === 0 || n >= rows[name].counts[i - 1]), name).toBe(true);
  }
  // The rows drawn later are whole rows that work: edit the last case and the last token.
  await evalCard.locator('li.eval-case').last().getByLabel('Name').fill('the last case, edited');
  await expect(evalCard.locator('li.eval-case').last()).toHaveAttribute('data-case', 'the last case, edited');
  expect(errors).toEqual([]);
});

test('a reader below the mini eval and the loss playground gets them whole at once, so that later rows never push the text down', async ({ page }) => {
  const errors = watchErrors(page);
  await watchRows(page);
  // Both widgets' places start above the screen; the loader scrolls by what each mount grows.
  await page.goto('/model-selection/#how-distillation-is-used');
  await appReady(page);
  await expect(page.locator('[data-widget="distillation"] .distill-table tbody tr').first()).toBeAttached();
  await expect(page.locator('[data-widget="mini-eval"] li.eval-case').first()).toBeAttached();
  const all = await rowsOf(page);
  const rows = await page.evaluate(() => window.__rows);
  for (const name of ['mini-eval', 'distillation']) {
    expect(rows[name].first, name).toBe(all[name]);
  }
  await expect(page.locator('#how-distillation-is-used')).toBeInViewport();
  expect(errors).toEqual([]);
});

/** Turns the browser's scroll anchoring off in `page` from its next load, as in Safari. */
function withoutScrollAnchoring(page) {
  return page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => { document.documentElement.style.overflowAnchor = 'none'; });
  });
}

// Safari has no scroll anchoring: a widget place above the reader that is laid out or mounted
// changes the page's height there, and only the app keeps the reader on the heading they
// followed. Chromium's anchoring, turned off here, hid this (and missed it now and then too,
// when the change came in the frame after the jump).
for (const how of ['a deep link', 'a link inside the app']) {
  test(`without scroll anchoring, ${how} below the mini eval lands on its heading and stays there while the widgets above mount`, async ({ page }) => {
    const errors = watchErrors(page);
    await withoutScrollAnchoring(page);
    const target = '/model-selection/#example-3-fine-tuning';
    if (how === 'a deep link') {
      await page.goto(target);
    } else {
      await page.goto('/');
      await appReady(page);
      await page.evaluate((href) => {
        const a = Object.assign(document.createElement('a'), { href: href.slice(1), textContent: 'go' });
        document.querySelector('main').append(a);
      }, target);
      await page.getByRole('link', { name: 'go', exact: true }).click();
    }
    await appReady(page);
    const heading = page.locator('#example-3-fine-tuning');
    // Every widget above the heading mounts, the mini eval with all its rows.
    const cases = (await rowsOf(page))['mini-eval'];
    await expect(page.locator('[data-widget="mini-eval"] li.eval-case')).toHaveCount(cases);
    await expect.poll(() => heading.evaluate((h) => [...document.querySelectorAll('[data-widget-slot]')]
      .filter((s) => s.compareDocumentPosition(h) & Node.DOCUMENT_POSITION_FOLLOWING)
      .every((s) => s.querySelector('section.widget')))).toBe(true);
    await page.waitForTimeout(300);
    const top = await heading.evaluate((h) => h.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(200);
    expect(errors).toEqual([]);
  });
}

// Before the app starts (its wasm still on the way, as on a slow phone network), the page the
// build wrote is all there is: the browser lays out the widget places above the heading as it
// reaches them, and without scroll anchoring the heading would move off the screen until the
// shell took over. The page's first script holds it from its first frame.
test('without scroll anchoring, a deep link lands on its heading and stays there before the app starts', async ({ page }) => {
  await withoutScrollAnchoring(page);
  // The wasm never arrives: the shell and the widgets never start.
  await page.route('**/*.wasm', () => {});
  await page.goto('/model-selection/#example-3-fine-tuning', { waitUntil: 'load' });
  const heading = page.locator('#example-3-fine-tuning');
  // Every widget place above the heading has been laid out at least once (its "Loading" line).
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.waitForTimeout(500);
  await expect(page.locator('[data-widget-slot] section.widget')).toHaveCount(0);
  const top = await heading.evaluate((h) => h.getBoundingClientRect().top);
  expect(top).toBeGreaterThanOrEqual(0);
  expect(top).toBeLessThan(200);
  // A reader who scrolls is left where they scrolled to.
  await page.mouse.move(200, 300);
  await page.mouse.wheel(0, -600);
  await page.waitForTimeout(300);
  const after = await heading.evaluate((h) => h.getBoundingClientRect().top);
  expect(after).toBeGreaterThan(top + 300);
});

// A page brought back holds the reader's heading while the widgets above it mount, but not
// against someone else's scroll: a script's here (a scrollbar's, a test's), which the hold once
// undid when the page's height changed in the same frame.
test('after a reload, a scroll by a script while the widgets mount is left alone', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/model-selection/');
  await appReady(page);
  await expect(page.locator('[data-widget="mini-eval"] li.eval-case').first()).toBeAttached();
  await page.locator('#how-distillation-is-used').evaluate((h) => h.scrollIntoView());
  await page.waitForTimeout(300);
  // The wasm comes a second late, so that the widgets mount after the scroll below.
  await page.route('**/*.wasm', async (route) => {
    await new Promise((r) => setTimeout(r, 1000));
    await route.continue();
  });
  await page.reload({ waitUntil: 'commit' });
  // Two frames after the load (the place is put back in the first), the page goes to the top,
  // before its widgets have mounted; in the same task the page grows below (as when a widget
  // mounts), so that the hold sees the page's size change before it sees the scroll.
  const early = await page.evaluate(() => new Promise((ok) => {
    const go = () => requestAnimationFrame(() => requestAnimationFrame(() => {
      window.scrollTo(0, 0);
      document.body.append(Object.assign(document.createElement('div'), { style: 'height: 40px' }));
      ok([...document.querySelectorAll('[data-widget-slot]')].filter((s) => !s.querySelector('section.widget')).length);
    }));
    if (document.readyState === 'complete') go(); else addEventListener('load', go);
  }));
  expect(early, 'widget places still to mount when the page went to the top').toBeGreaterThan(0);
  await appReady(page);
  await expect(page.locator('[data-widget="mini-eval"] li.eval-case').first()).toBeAttached();
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => scrollY)).toBe(0);
  expect(errors).toEqual([]);
});

// A reload (or Back and Forward from another site, and a phone bringing back a tab it dropped)
// puts the reader where they were: the heading they were at goes back to where it was on their
// screen (`js/boot.js` notes it as the page goes away), and neither the page's first script
// nor the app's start may move them to the top or to the heading in the address. A note that
// cannot be read leaves the browser's own restoring, without an error.
for (const [start, note, anchoring] of [
  ['/model-selection/', null, true],
  ['/model-selection/#example-1-weight-memory', null, true],
  // As in Firefox, whose restoring does not make up for the widget places above the reader.
  ['/model-selection/', null, false],
  ['/model-selection/', '{"path":', true],
  ['/model-selection/', '{"path":"/model-selection/","id":"how-distillation-is-used","top":"far"}', true],
  ['/model-selection/', '{"path":"/model-selection/","id":"how-distillation-is-used","top":-1e9}', true],
]) {
  test(`a reload keeps the reader's place in the lesson (opened at ${start}${note ? `, a note of ${note}` : ''}${anchoring ? '' : ', without scroll anchoring'})`, async ({ page }) => {
    const errors = watchErrors(page);
    if (!anchoring) {
      await withoutScrollAnchoring(page);
    }
    await page.goto(start);
    await appReady(page);
    await expect(page.locator('[data-widget="mini-eval"] li.eval-case').first()).toBeAttached();
    const place = page.locator('#how-distillation-is-used');
    // The heading a third of the way down the screen, not at its top, once the page is still.
    const top = () => place.evaluate((h) => Math.round(h.getBoundingClientRect().top));
    let before = null;
    await expect.poll(async () => {
      const was = before;
      await place.evaluate((h) => window.scrollBy(0, h.getBoundingClientRect().top - 300));
      await page.waitForTimeout(300);
      before = await top();
      return was === 300 && before === 300;
    }).toBe(true);
    // Written as the page goes away; spoilt as the page comes back, before its scripts run.
    if (note) await page.addInitScript((n) => sessionStorage.setItem('ie-course:place', n), note);
    await page.reload();
    await appReady(page);
    await expect(page.locator('[data-widget="mini-eval"] li.eval-case').first()).toBeAttached();
    await page.waitForTimeout(500);
    if (note) await expect(place).toBeInViewport();
    else expect(Math.abs((await top()) - before)).toBeLessThanOrEqual(2);
    expect(await page.evaluate(() => scrollY)).toBeGreaterThan(1000);
    expect(errors).toEqual([]);
  });
}

// Before a page runs its wasm, a worker runs it once against stand-ins, so that V8 compiles the
// start's and the widgets' code on the worker's thread (js/start.js, js/warmup.js).
async function allWidgetsMounted(page) {
  await expect.poll(() => page.evaluate(() => [...document.querySelectorAll('[data-widget-slot]')]
    .every((s) => s.querySelector('section.widget[data-widget]'))), { timeout: 15_000 }).toBe(true);
}

for (const path of ['/', '/why-size-wins/']) {
  test(`${path}: a worker runs the wasm first, and is ended once the page starts`, async ({ page }) => {
    const errors = watchErrors(page);
    const workers = [];
    page.on('worker', (w) => {
      const seen = { url: w.url(), closed: false };
      w.on('close', () => { seen.closed = true; });
      workers.push(seen);
    });
    await page.goto(path);
    await appReady(page);
    await allWidgetsMounted(page);
    const warm = workers.filter((w) => /\/warmup-[0-9a-f]+\.js$/.test(w.url));
    expect(warm).toHaveLength(1);
    await expect.poll(() => warm[0].closed).toBe(true);
    expect(errors).toEqual([]);
  });
}

/** The warm-up worker's answer on `path` (the performance mark the start script leaves). A busy
 * machine can hold the worker's own start (importing and instantiating the module) past the
 * page's cap, whatever the run would do; such a load is taken again, up to three times. */
async function warmUpAnswer(page, path) {
  let answer = null;
  for (let tries = 0; tries < 3 && (!answer || answer.cap); tries += 1) {
    await page.goto(path);
    await appReady(page);
    const marks = await page.evaluate(() => performance.getEntriesByName('ie-course:warm-up').map((m) => m.detail));
    expect(marks, path).toHaveLength(1);
    answer = marks[0];
  }
  return answer;
}

// The worker earns its wait only if it answers well before the page's cap (a second): on every
// lesson it answers on its own, and within its bound on what it may touch (js/warmup.js: a loop
// over a stand-in ends at that bound instead of spinning until the cap). Its time bound (half the
// cap) may end a run on a busy machine; the answer still comes before the cap.
test('on every lesson the worker answers on its own, within its bound, well before the cap', async ({ page }) => {
  await page.goto('/');
  await appReady(page);
  const lessons = await lessonsOf(page);
  const runs = [];
  for (const path of ['/', ...lessons.map((l) => `/${l.slug}/`)]) {
    const answer = await warmUpAnswer(page, path);
    expect(answer.cap, `${path}: the page stopped waiting at its cap`).toBeUndefined();
    expect(answer.bound, `${path}: the run touched more than a real run does`).not.toBe('touches');
    expect(answer.touches, path).toBeGreaterThan(100);
    runs.push(`${path} ${answer.ms} ms ${answer.touches} touches${answer.bound ? ` (bound: ${answer.bound})` : ''}`);
  }
  console.log(runs.join('\n'));
});

test('a run that goes past the worker\'s bound ends there and answers, and the page starts as before', async ({ page }) => {
  // The same worker with a bound of 50 touches: its run stops there (every touch after throws),
  // as a loop over a stand-in would; it still answers, and the page's widgets all work.
  const errors = watchErrors(page);
  await page.route(/\/warmup-[0-9a-f]+\.js$/, async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace(/MAX_TOUCHES\s*=\s*[0-9e_]+/, 'MAX_TOUCHES=50');
    expect(body).toContain('MAX_TOUCHES=50');
    await route.fulfill({ response, body, headers: { ...response.headers(), 'content-encoding': '' } });
  });
  const answer = await warmUpAnswer(page, '/model-selection/');
  await allWidgetsMounted(page);
  expect(answer, JSON.stringify(answer)).toMatchObject({ bound: 'touches' });
  expect(answer.cap).toBeUndefined();
  // Stopped, not just counted: a whole run on this page makes some 14,000 touches.
  expect(answer.touches).toBeLessThan(1000);
  await page.getByTestId('weight-params').fill('8');
  await expect(page.getByTestId('weight-gb')).toHaveText(/^16\b/);
  expect(errors).toEqual([]);
});

test('the worker draws the page the reader opened, not a page of its own address', async ({ page }) => {
  // It has no page to read a lesson's text from, so a lesson drawn there asks the network for it,
  // which it cannot reach (its fetch is a stand-in): here that stand-in tells the page which URL
  // it was asked for. The worker's own address would draw "no lesson at this address" instead.
  await page.route(/\/warmup-[0-9a-f]+\.js$/, async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace(/fetch:\s*\(\)\s*=>\s*new Promise\(\(\)\s*=>\s*\{\s*\}\)/,
      'fetch: (u) => { postMessage("fetch " + u); return new Promise(() => {}); }');
    expect(body).toContain('postMessage("fetch "');
    await route.fulfill({ response, body, headers: { ...response.headers(), 'content-encoding': '' } });
  });
  await page.addInitScript(() => {
    const Real = window.Worker;
    window.__told = [];
    window.Worker = class extends Real {
      constructor(...args) { super(...args); this.addEventListener('message', (e) => window.__told.push(String(e.data))); }
    };
  });
  await page.goto('/why-size-wins/');
  await appReady(page);
  expect(await page.evaluate(() => window.__told)).toEqual([`fetch ${new URL('index.html', page.url()).href}`]);
});

test('the worker is made while the wasm downloads, not after, and the page then starts', async ({ page }) => {
  // It imports the module's script meanwhile. Here the wasm is held back until a worker appears
  // (five seconds at most): a worker made only once the wasm was compiled would never appear.
  const errors = watchErrors(page);
  const made = new Promise((done) => page.on('worker', (w) => { if (/\/warmup-[0-9a-f]+\.js$/.test(w.url())) done(true); }));
  let madeFirst = null;
  await page.route(/_bg\.wasm$/, async (route) => {
    madeFirst = await Promise.race([made, new Promise((done) => setTimeout(() => done(false), 5000))]);
    await route.continue();
  });
  await page.goto('/why-size-wins/');
  await appReady(page);
  await allWidgetsMounted(page);
  expect(madeFirst).toBe(true);
  expect(errors).toEqual([]);
});

test('a page whose worker cannot load, or never answers, starts as before', async ({ page }) => {
  const errors = watchErrors(page);
  await page.route(/\/warmup-[0-9a-f]+\.js$/, (route) => route.abort());
  await page.goto('/why-size-wins/');
  await appReady(page);
  await allWidgetsMounted(page);
  await page.unroute(/\/warmup-[0-9a-f]+\.js$/);
  // A worker that takes the module and never answers: the page waits a second, no more.
  await page.route(/\/warmup-[0-9a-f]+\.js$/, (route) => route.fulfill({ contentType: 'text/javascript', body: 'onmessage = () => {};' }));
  let closed = false;
  page.on('worker', (w) => w.on('close', () => { closed = true; }));
  await page.goto('/model-selection/');
  await appReady(page);
  await allWidgetsMounted(page);
  await expect.poll(() => closed).toBe(true);
  // The aborted load is the browser's own message, not the page's.
  expect(errors.filter((e) => !/warmup-[0-9a-f]+\.js|Failed to load resource/.test(e))).toEqual([]);
});
