// Accessibility: axe-core (WCAG 2.2 A and AA rules) on every page, in both themes, with the
// widgets loaded. Any violation fails, with its rule and the elements it names.
const { test, expect } = require('@playwright/test');
const { lessonsOf, appReady } = require('./course');

// axe is injected as a script; the site's CSP (rightly) forbids that, so this context bypasses it.
test.use({ bypassCSP: true });

async function violations(page) {
  await page.addScriptTag({ path: require.resolve('axe-core') });
  return page.evaluate(async () => {
    const result = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    });
    return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
}

for (const scheme of ['light', 'dark']) {
  test(`no axe violations on any page, ${scheme} theme`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await page.goto('/');
    await appReady(page);
    const lessons = await lessonsOf(page);
    const found = {};
    for (const path of ['/', ...lessons.map((l) => `/${l.slug}/`), '/print/', '/glossary/']) {
      await page.goto(path);
      await appReady(page);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(200); // widgets mount after their module loads
      const v = await violations(page);
      if (v.length) found[path] = v;
    }
    expect(found).toEqual({});
  });
}
