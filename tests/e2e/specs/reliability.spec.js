// What happens when a widgets module dies anyway: every widget it served gives way to a calm
// notice, the shell goes on, nothing stored is lost, and a restart brings the widgets back.
const { test, expect } = require('@playwright/test');
const { watchErrors, appReady } = require('./course');

/** Every `ie-course:` value in this page's storage, but for the reading position (the heading
 * last on screen), which the shell, still working, rightly moves when the widgets give way to
 * the shorter notices and the page shifts under the reader. */
const storedValues = (page) =>
  page.evaluate(() =>
    Object.fromEntries(
      Object.keys(localStorage)
        .filter((k) => k.startsWith('ie-course:'))
        .sort()
        .map((k) => {
          const raw = localStorage.getItem(k);
          if (k !== 'ie-course:progress') return [k, raw];
          const stored = JSON.parse(raw);
          if (stored && stored.data) delete stored.data.last;
          return [k, JSON.stringify(stored)];
        }),
    ),
  );

/** Makes the page's own widgets module panic from a task of its own, as a bug in an event handler
 * would: the trap is uncaught, as it would be. The widgets run in the instance the loader made by
 * importing the module's script under `#widgets` (js/loader.js); the same address gives the same
 * instance. `abort_for_tests` is in the sub-path build only (its cargo feature `test-hooks`). */
const abortWidgets = (page) =>
  page.evaluate(async () => {
    const meta = document.querySelector('meta[name="ie-course-widgets"]');
    const js = await import(new URL(meta.content, document.baseURI).href + '#widgets');
    if (!js.abort_for_tests) throw new Error('this build has no test hooks (IE_TEST_HOOKS=1)');
    setTimeout(() => js.abort_for_tests(), 0);
  });

test('a widgets module that aborts leaves a notice in each widget, the shell working, storage intact, and a restart', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto(`${process.env.E2E_SUB_ORIGIN}/some/sub/path/model-selection/`);
  await appReady(page);
  const slots = page.locator('[data-widget-slot]');
  const count = await slots.count();
  expect(count).toBeGreaterThan(3);
  await expect(page.locator('[data-widget-slot] [data-widget]')).toHaveCount(count);
  // Something the reader stored, in a widget of this page.
  const playground = page.locator('[data-widget="distillation"]');
  await playground.getByTestId('distill-temperature').fill('3');
  await expect.poll(async () => (await storedValues(page))['ie-course:distillation'] || '').toContain('"3"');
  const before = await storedValues(page);

  await abortWidgets(page);

  // Each widget gives way to the notice; none is left looking live.
  await expect(page.getByTestId('widget-stopped')).toHaveCount(count);
  await expect(page.locator('[data-widget-slot] [data-widget]')).toHaveCount(0);
  await expect(page.getByTestId('widget-stopped').first()).toContainText('stopped working');
  expect(errors.join('\n')).toMatch(/unreachable|RuntimeError/);
  expect(await storedValues(page)).toEqual(before);
  // The diagrams, which the build drew and no module serves, still answer.
  const path = page.getByTestId('diagram-decision-path');
  await path.locator('[data-node="deploy"]').click();
  await expect(path.getByTestId('diagram-detail')).toContainText('quantization');

  // The shell goes on: theme, search, and a move to another lesson, whose widgets say the same.
  const theme = await page.evaluate(() => document.documentElement.dataset.theme || '');
  await page.getByTestId('theme-toggle').click();
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme || '')).not.toBe(theme);
  await page.getByTestId('search-button').click();
  await page.getByTestId('search-input').fill('distillation');
  await expect(page.getByTestId('search-results').locator('a').first()).toBeVisible();
  await page.keyboard.press('Escape');
  await page.locator('nav#toc a[href*="why-size-wins"]').first().click();
  await expect(page).toHaveURL(/why-size-wins/);
  await expect(page.locator('[data-testid="lesson"] h1')).toBeVisible();
  // Count the new lesson's places once they are drawn (the heading can come first).
  await expect(page.locator('[data-widget-slot]').first()).toBeAttached();
  const here = await page.locator('[data-widget-slot]').count();
  expect(here).toBeGreaterThan(0);
  await expect(page.getByTestId('widget-stopped')).toHaveCount(here);
  const now = await storedValues(page);
  for (const [key, value] of Object.entries(before)) {
    // The theme was just changed on purpose; reading progress may move on.
    if (!/:theme$|:progress/.test(key)) expect(now[key], key).toBe(value);
  }

  // A restart brings every widget back, from what was stored.
  await page.goBack();
  await expect(page).toHaveURL(/model-selection/);
  await page.getByTestId('widget-restart').first().click();
  await expect(page.getByTestId('widget-stopped')).toHaveCount(0);
  await expect(page.locator('[data-widget-slot] [data-widget]')).toHaveCount(count);
  const again = page.locator('[data-widget="distillation"]');
  await expect(again.getByTestId('distill-temperature')).toHaveValue('3');
  // And they answer: an edit reaches storage again.
  await again.getByTestId('distill-temperature').fill('4');
  await expect.poll(async () => (await storedValues(page))['ie-course:distillation'] || '').toContain('"4"');
  const kinds = errors.filter((e) => !/unreachable|RuntimeError|panicked|abort/.test(e));
  expect(kinds).toEqual([]);
});

// The hook above is a test's only: the site's own build has no export that aborts a module.
test('the site build exports no test hook', async ({ page }) => {
  await page.goto('/model-selection/');
  const exported = await page.evaluate(async () => {
    const meta = document.querySelector('meta[name="ie-course-widgets"]');
    const js = await import(new URL(meta.content, document.baseURI).href + '#exports');
    return Object.keys(js);
  });
  expect(exported).toContain('mount_widget');
  expect(exported).toContain('start_app');
  expect(exported).not.toContain('abort_for_tests');
});
