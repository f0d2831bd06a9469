// Reading features: search, progress, shortcuts, print, security policy, offline.
const { test, expect } = require('@playwright/test');
const { lessonsOf, watchErrors, appReady } = require('./course');

test('search opens with / and s, finds a section, marks the match and jumps to it', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await appReady(page);
  await page.keyboard.press('/');
  const dialog = page.getByTestId('search-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('search-input')).toBeFocused();
  await page.getByTestId('search-input').fill('distillation');
  const results = page.getByTestId('search-results').locator('li');
  await expect(results.first()).toBeVisible();
  expect(await results.count()).toBeGreaterThan(1);
  await expect(results.first().locator('mark').first()).toHaveText(/^distillation$/i);
  await expect(results.first().locator('.result-lesson')).not.toBeEmpty();
  const href = await results.first().locator('a').getAttribute('href');
  await results.first().locator('a').click();
  await expect(dialog).toBeHidden();
  const [slug, id] = href.split('/#');
  await expect(page).toHaveURL(new RegExp(`/${slug}/`));
  if (id) await expect(page.locator(`[id="${id}"]`)).toBeInViewport();
  // `s` opens it too, Escape closes it; typing `s` in the box does not reopen or close it.
  await page.keyboard.press('s');
  await expect(dialog).toBeVisible();
  await page.getByTestId('search-input').fill('zzzzqq');
  await expect(dialog.getByRole('status')).toContainText('No section mentions');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // The button opens it, and Enter goes to the first result.
  await page.getByTestId('search-button').click();
  await page.getByTestId('search-input').fill('percentile');
  await expect(results.first()).toBeVisible();
  await page.getByTestId('search-input').press('Enter');
  await expect(dialog).toBeHidden();
  expect(errors).toEqual([]);
});

test('search results render the query as text, never as HTML', async ({ page }) => {
  await page.goto('/');
  await appReady(page);
  await page.keyboard.press('/');
  await page.getByTestId('search-input').fill('<img src=x onerror=alert(1)> model');
  await expect(page.getByTestId('search-results').locator('img')).toHaveCount(0);
});

test('progress: reaching the end marks a lesson read, kept after a reload; continue where you left off', async ({ page }) => {
  await page.goto('/');
  await appReady(page);
  const lessons = await lessonsOf(page);
  await expect(page.getByTestId('reading-progress')).toContainText(`0 of ${lessons.length} read`);
  await page.goto(`/${lessons[2].slug}/`);
  await appReady(page);
  await expect(page.locator('nav#toc li').nth(2).getByTestId('toc-tick')).toBeHidden();
  await page.getByTestId('next-lesson').scrollIntoViewIfNeeded();
  await expect(page.locator('nav#toc li').nth(2).getByTestId('toc-tick')).toBeVisible();
  await expect(page.getByTestId('mark-read')).toHaveAttribute('aria-pressed', 'true');
  // Scroll back to a heading in the middle: that is the place to continue from.
  const heading = page.locator('[data-testid="lesson"] h2').nth(1);
  const id = await heading.getAttribute('id');
  await heading.evaluate((h) => window.scrollTo(0, h.getBoundingClientRect().top + window.scrollY - 60));
  await page.waitForTimeout(300);
  await page.reload();
  await appReady(page);
  await expect(page.locator('nav#toc li').nth(2).getByTestId('toc-tick')).toBeVisible();
  await expect(page.getByTestId('reading-progress')).toContainText(`1 of ${lessons.length} read`);
  await page.goto('/');
  await appReady(page);
  const resume = page.getByTestId('continue-reading');
  await expect(resume).toContainText(lessons[2].title);
  await resume.click();
  await expect(page).toHaveURL(new RegExp(`/${lessons[2].slug}/#${id}$`));
  // The button takes the mark back off.
  await page.getByTestId('mark-read').click();
  await expect(page.locator('nav#toc li').nth(2).getByTestId('toc-tick')).toBeHidden();
});

test('progress: a widget\'s title is not a place to continue from; the heading of the text above it is', async ({ page }) => {
  await page.goto('/model-selection/');
  await appReady(page);
  const title = page.locator('section.widget[data-widget="weight-memory"] h3.widget-title');
  await title.scrollIntoViewIfNeeded();
  await expect(title).toBeVisible();
  // The lesson's last heading before the card: where a reader reading the card has got to.
  const expected = await title.evaluate((t) => [...document.querySelectorAll('[data-testid="lesson"] :is(h2, h3)[id]:not(.widget-title)')]
    .filter((h) => h.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING).at(-1).id);
  const widgetId = await title.getAttribute('id');
  expect(expected).not.toBe(widgetId);
  await title.evaluate((t) => window.scrollTo(0, t.getBoundingClientRect().top + window.scrollY - 60));
  await page.waitForTimeout(300);
  await page.goto('/');
  await appReady(page);
  await expect(page.getByTestId('continue-reading')).toHaveAttribute('href', new RegExp(`(^|/)model-selection/#${expected}$`));
});

test('? shows the keyboard shortcuts', async ({ page }) => {
  await page.goto('/');
  await appReady(page);
  await page.keyboard.press('?');
  const dialog = page.getByTestId('shortcuts-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Next lesson');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('printing hides navigation and controls and keeps the text and results', async ({ page }) => {
  await page.goto('/');
  await appReady(page);
  const lessons = await lessonsOf(page);
  await page.goto(`/${lessons[3].slug}/`);
  await appReady(page);
  await expect(page.getByTestId('weight-gb').first()).toHaveText(/GB/);
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('nav#toc')).toBeHidden();
  await expect(page.locator('.site-header')).toBeHidden();
  await expect(page.locator('.pager')).toBeHidden();
  await expect(page.locator('[data-testid="lesson"] h1')).toBeVisible();
  await expect(page.getByTestId('weight-gb').first()).toBeVisible();
  await expect(page.locator('.widget .presets').first()).toBeHidden();
});

test('the whole chapter prints from one page', async ({ page }) => {
  await page.goto('/');
  await appReady(page);
  const lessons = await lessonsOf(page);
  await page.getByTestId('print-link').click();
  await expect(page).toHaveURL(/\/print\/$/);
  const titles = page.locator('.print-lesson-title');
  await expect(titles).toHaveCount(lessons.length);
  await expect(titles.nth(3)).toHaveText(lessons[3].title);
  await expect(page.getByTestId('weight-gb').first()).toHaveText(/GB/);
});

test('every page carries a CSP without unsafe-inline scripts, a canonical link and a favicon', async ({ page, request }) => {
  await page.goto('/');
  await appReady(page);
  const lessons = await lessonsOf(page);
  const sha256 = async (text) => {
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
    return Buffer.from(digest).toString('base64');
  };
  let inline = 0;
  for (const path of ['/', ...lessons.map((l) => `/${l.slug}/`), '/print/', '/glossary/', '/404.html']) {
    const html = await (await request.get(path)).text();
    const csp = html.match(/http-equiv="Content-Security-Policy" content="([^"]+)"/)[1];
    expect(csp).toMatch(/script-src 'self' 'wasm-unsafe-eval'[ ;]/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    // Scripts come from the site; the only inline ones (a diagram's first-layout line) are named
    // by their hash, each of them.
    const scripts = csp.match(/script-src ([^;]*)/)[1];
    for (const m of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) {
      inline += 1;
      expect(scripts, path).toContain(`'sha256-${await sha256(m[1])}'`);
    }
    expect(csp).toContain("object-src 'none'");
    expect(html).toMatch(/<link rel="canonical" href="\/[^"]*"/);
    expect(html).toMatch(/<link rel="icon"/);
  }
  expect(inline).toBeGreaterThan(0);
});

test('the offline copy is fetched from the site, not from what the browser held before', async ({ page, context }) => {
  // Pages keep their names from one build to the next: a copy from the browser's HTTP cache
  // could be an older deploy's, kept beside the new one's files. (wasm-bindgen's snippets are
  // fetched the same way, though their folder is now named for what it holds.)
  const precached = [];
  context.on('request', (req) => {
    // The worker's own script is not one of the files it keeps (the browser checks it anew).
    if (req.serviceWorker() && !req.url().endsWith('/sw.js')) precached.push(req.allHeaders().then((h) => [new URL(req.url()).pathname, h['cache-control'] || '']));
  });
  await page.goto('/why-size-wins/');
  await appReady(page);
  await page.evaluate(() => navigator.serviceWorker.ready);
  const requests = await Promise.all(precached);
  const paths = requests.map(([path]) => path);
  expect(paths.some((p) => p.endsWith('/why-size-wins/index.html'))).toBe(true);
  expect(paths.some((p) => /\/snippets\/.+\.js$/.test(p))).toBe(true);
  expect(requests.filter(([, cache]) => cache !== 'no-cache')).toEqual([]);
});

test('after one visit the course reads offline', async ({ page, context }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await appReady(page);
  const lessons = await lessonsOf(page);
  // Wait for the service worker to install (it precaches every file) and take control.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
    }
  });
  await context.setOffline(true);
  await page.reload();
  await appReady(page);
  await page.goto(`/${lessons[3].slug}/`);
  await appReady(page);
  await expect(page.locator('[data-testid="lesson"] h1')).toHaveText(lessons[3].title);
  await page.getByTestId('weight-params').first().fill('8');
  await expect(page.getByTestId('weight-gb').first()).toHaveText('16 GB');
  await context.setOffline(false);
  expect(errors.filter((e) => !e.includes('net::ERR_INTERNET_DISCONNECTED'))).toEqual([]);
});
