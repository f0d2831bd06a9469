// The course shell: every lesson loads, navigation by click and keyboard, deep links,
// pre-rendered pages, theme.
const { test, expect } = require('@playwright/test');
const { lessonsOf, watchErrors, appReady, ORIGIN, SUB_ORIGIN } = require('./course');

test('every lesson loads with no console error', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await appReady(page);
  const lessons = await lessonsOf(page);
  expect(lessons.length).toBeGreaterThanOrEqual(8);
  for (const { slug, title } of lessons) {
    await page.goto(`/${slug}/`);
    await appReady(page);
    await expect(page.locator('[data-testid="lesson"] h1')).toHaveText(title);
    await expect(page).toHaveTitle(new RegExp(title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  }
  expect(errors).toEqual([]);
});

test('navigation by click: contents, next and previous, title page', async ({ page }) => {
  await page.goto('/');
  await appReady(page);
  const lessons = await lessonsOf(page);
  await page.locator('nav#toc').getByRole('link', { name: lessons[3].title }).click();
  await expect(page).toHaveURL(`/${lessons[3].slug}/`);
  await expect(page.locator('[data-testid="lesson"] h1')).toHaveText(lessons[3].title);
  await expect(page.locator('nav#toc a[aria-current="page"] .toc-title')).toHaveText(lessons[3].title);
  await page.getByTestId('next-lesson').click();
  await expect(page).toHaveURL(`/${lessons[4].slug}/`);
  await page.getByTestId('prev-lesson').click();
  await page.getByTestId('prev-lesson').click();
  await expect(page.locator('[data-testid="lesson"] h1')).toHaveText(lessons[2].title);
  await page.goBack();
  await expect(page.locator('[data-testid="lesson"] h1')).toHaveText(lessons[3].title);
  await page.locator('.site-title').click();
  await expect(page).toHaveURL('/');
  await expect(page.getByTestId('start-course')).toBeVisible();
});

test('navigation by keyboard: Tab and Enter, then [ and ]', async ({ page }) => {
  await page.goto('/');
  await appReady(page);
  const lessons = await lessonsOf(page);
  // The skip link comes first and moves focus to the text.
  await page.keyboard.press('Tab');
  await expect(page.locator('.skip-link')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('main#main')).toBeFocused();
  // Tab to the "Start the course" link and follow it.
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    if (await page.getByTestId('start-course').evaluate((el) => el === document.activeElement)) break;
  }
  await expect(page.getByTestId('start-course')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`/${lessons[0].slug}/`);
  await page.keyboard.press(']');
  await expect(page).toHaveURL(`/${lessons[1].slug}/`);
  await expect(page.locator('[data-testid="lesson"] h1')).toBeFocused();
  await page.keyboard.press(']');
  await page.keyboard.press('[');
  await expect(page).toHaveURL(`/${lessons[1].slug}/`);
  // Keys typed into a field do not turn pages.
  await page.goto(`/${lessons[3].slug}/`);
  await appReady(page);
  const field = page.getByTestId('weight-params').first();
  await field.focus();
  await page.keyboard.press(']');
  await expect(page).toHaveURL(`/${lessons[3].slug}/`);
});

for (const [name, origin, base] of [
  ['at the root', ORIGIN, '/'],
  ['under a sub-path', SUB_ORIGIN, '/some/sub/path/'],
]) {
  test(`deep link to a heading survives a reload ${name}`, async ({ page }) => {
    await page.goto(origin + base);
    await appReady(page);
    const lessons = await lessonsOf(page);
    const target = lessons[3];
    await page.goto(`${origin}${base}${target.slug}/`);
    await appReady(page);
    const heading = page.locator('[data-testid="lesson"] h2').nth(2);
    const id = await heading.getAttribute('id');
    const url = `${origin}${base}${target.slug}/#${id}`;
    await page.goto(url);
    await page.reload();
    await appReady(page);
    await expect(page).toHaveURL(url);
    await expect(page.locator('[data-testid="lesson"] h1')).toHaveText(target.title);
    await expect(page.locator(`[id="${id}"]`)).toBeInViewport();
    // Links stay under the base: the contents link to lesson 1 points inside it.
    const href = await page.locator('nav#toc a').first().evaluate((a) => a.href);
    expect(href).toBe(`${origin}${base}${lessons[0].slug}/`);
    // A lesson URL without its trailing slash still opens the lesson.
    await page.goto(`${origin}${base}${lessons[1].slug}`);
    await appReady(page);
    await expect(page.locator('[data-testid="lesson"] h1')).toHaveText(lessons[1].title);
  });
}

test('every lesson is a real pre-rendered page, readable without JavaScript', async ({ request, browser }) => {
  const home = await (await request.get('/')).text();
  expect(home).toContain('class="lesson-list"');
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  const lessons = await lessonsOf(page);
  for (const { slug, title } of lessons) {
    const res = await request.get(`/${slug}/`);
    expect(res.status()).toBe(200);
    await page.goto(`/${slug}/`);
    await expect(page.locator('main h1')).toHaveText(title);
    await expect(page).toHaveTitle(new RegExp(title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    const description = await page.locator('meta[name="description"]').getAttribute('content');
    expect(description.length).toBeGreaterThan(20);
  }
  await context.close();
});

test('an unknown address shows a way back', async ({ page }) => {
  // GitHub Pages serves 404.html for any unknown path; the app shows the same page.
  await page.goto('/404.html');
  await appReady(page);
  await expect(page.locator('main h1')).toHaveText('No lesson at this address');
  await page.getByRole('link', { name: 'Go to the start of the course' }).click();
  await expect(page.getByTestId('start-course')).toBeVisible();
});

test('the theme toggle overrides the system and survives a reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  await appReady(page);
  const html = page.locator('html');
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const lightBg = await bg();
  await page.getByTestId('theme-toggle').click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByTestId('theme-toggle')).toHaveAttribute('aria-pressed', 'true');
  expect(await bg()).not.toBe(lightBg);
  await page.reload();
  await appReady(page);
  await expect(html).toHaveAttribute('data-theme', 'dark');
  expect(await bg()).not.toBe(lightBg);
  const stored = await page.evaluate(() => localStorage.getItem('ie-course:theme'));
  expect(JSON.parse(stored)).toEqual({ v: 1, data: 'dark' });
});

// The header's icons are drawings, not characters: no text font of the page holds ☰, ⌕, ☀ or ☾,
// and asking the system for a fallback font cost the shell's first layout time (style/main.css,
// `.icon`). Each is drawn in its button's colour, and the theme's follows the theme.
test('the header icons are drawn in the text colour, and the theme icon follows the theme', async ({ page }) => {
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 375, height: 700 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/about-your-app/');
  await appReady(page);
  const header = page.locator('header.site-header');
  const drawing = (icon) => icon.evaluate((el) => {
    const box = el.getBoundingClientRect(), style = getComputedStyle(el);
    return { w: box.width, h: box.height, mask: style.maskImage, fill: style.backgroundColor, color: getComputedStyle(el.closest('button')).color };
  });
  const masks = new Set();
  for (const id of ['menu-button', 'search-button', 'theme-toggle']) {
    const icon = page.getByTestId(id).locator('.icon');
    await expect(icon).toBeVisible();
    expect(await icon.getAttribute('aria-hidden')).toBe('true');
    const drawn = await drawing(icon);
    expect(drawn.w).toBeGreaterThan(10);
    expect(drawn.h).toBeGreaterThan(10);
    expect(drawn.mask).toMatch(/^url\("data:image\/svg\+xml/);
    expect(drawn.fill).toBe(drawn.color);
    masks.add(drawn.mask);
  }
  expect(masks.size).toBe(3);
  // No character outside Latin-1 is left in the header's text.
  expect(await header.evaluate((h) => [...h.textContent].filter((c) => c.codePointAt(0) > 0xff))).toEqual([]);
  const themeIcon = page.getByTestId('theme-toggle').locator('.icon');
  const light = (await drawing(themeIcon)).mask;
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect.poll(async () => (await drawing(themeIcon)).mask).not.toBe(light);
  const dark = await drawing(themeIcon);
  expect(dark.fill).toBe(dark.color);
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expect.poll(async () => (await drawing(themeIcon)).mask).toBe(light);
  expect(errors).toEqual([]);
});

test('the menu opens the contents on a narrow screen', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/');
  await appReady(page);
  const toc = page.locator('nav#toc');
  await expect(toc).toBeHidden();
  await page.getByTestId('menu-button').click();
  await expect(page.getByTestId('menu-button')).toHaveAttribute('aria-expanded', 'true');
  await expect(toc).toBeVisible();
  const lessons = await lessonsOf(page);
  await toc.getByRole('link', { name: lessons[2].title }).click();
  await expect(page).toHaveURL(`/${lessons[2].slug}/`);
  await expect(toc).toBeHidden();
  // Nothing overflows the narrow viewport.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
