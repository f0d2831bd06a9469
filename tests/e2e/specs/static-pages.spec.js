// One render path: the page the build writes (read here with JavaScript off) and the page the
// running app draws come from the same components, so a reader finds the same headings, links,
// text and widget places either way.
const { test, expect } = require('@playwright/test');
const { lessonsOf, appReady } = require('./course');

/** What both renders must agree on, read from the page as a reader gets it. */
async function outline(page) {
  return page.evaluate(() => {
    // Widgets draw their own cards once loaded; their places are compared, not their insides.
    const outside = (el) => !el.closest('.widget-slot');
    const text = (el) => el.textContent.replace(/\s+/g, ' ').trim();
    // A link's words without the contents' "read" tick, which only the app (with its stored
    // progress) draws.
    const label = (a) => {
      const copy = a.cloneNode(true);
      copy.querySelectorAll('.tick').forEach((t) => t.remove());
      return text(copy);
    };
    const main = document.querySelector('main');
    return {
      title: document.title,
      headings: [...main.querySelectorAll('h1, h2, h3, h4')].filter(outside).map((h) => `${h.tagName} ${h.id} ${text(h)}`),
      links: [...document.querySelectorAll('main a[href], nav#toc a[href]')]
        .filter(outside)
        .map((a) => `${a.getAttribute('href')} ${label(a)}`),
      prose: [...main.querySelectorAll('.prose')].filter(outside).map(text),
      slots: [...main.querySelectorAll('[data-widget-slot]')].map((s) => s.dataset.widgetSlot),
      current: [...document.querySelectorAll('nav#toc [aria-current="page"]')].map((a) => a.getAttribute('href')),
    };
  });
}

test('every page reads the same with JavaScript off and on', async ({ browser, page }) => {
  test.setTimeout(120_000);
  await page.goto('/');
  const paths = ['', ...(await lessonsOf(page)).map((l) => `${l.slug}/`), 'glossary/', 'print/'];
  const off = await browser.newContext({ javaScriptEnabled: false });
  const plain = await off.newPage();
  for (const path of paths) {
    await plain.goto(`/${path}`);
    const written = await outline(plain);
    // Without JavaScript: the text, and each widget's place says it needs JavaScript.
    expect(written.prose.length + written.headings.length, path).toBeGreaterThan(0);
    for (const slot of await plain.locator('[data-widget-slot]').all()) {
      await expect(slot.getByText('This interactive part needs JavaScript.')).toBeVisible();
      await expect(slot.locator('.widget-loading')).toBeHidden();
    }
    await page.goto(`/${path}`);
    await appReady(page);
    const drawn = await outline(page);
    expect(drawn, path).toEqual(written);
  }
  await off.close();
});

// Every page's stylesheet is the build's minified main.css (xtask/src/assets.rs: minified, then
// named and hashed), and its integrity hash lets the browser use it: a stale hash would leave
// the page unstyled.
test('every page applies its minified stylesheet', async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.goto('/');
  const paths = ['', ...(await lessonsOf(page)).map((l) => `${l.slug}/`), 'glossary/', 'print/', '404.html'];
  for (const path of paths) {
    await page.goto(`/${path}`);
    const sheet = await page.evaluate(() => {
      const link = document.querySelector('link[rel="stylesheet"][href*="main-"]');
      return { href: link && link.href, rules: link && link.sheet ? link.sheet.cssRules.length : 0,
        accent: getComputedStyle(document.documentElement).getPropertyValue('--accent').trim() };
    });
    expect(sheet.href, path).toBeTruthy();
    expect(sheet.rules, path).toBeGreaterThan(50);
    expect(sheet.accent, path).not.toBe('');
    const css = await (await request.get(sheet.href)).text();
    expect(css.includes('/*'), `${path}: main.css is minified`).toBe(false);
  }
});
