// The size budget: everything a first load fetches, brotli-compressed, stays within 150 KB (issue 10).
const { test, expect } = require('@playwright/test');
const zlib = require('zlib');
const { appReady, ORIGIN } = require('./course');

const BUDGET_BYTES = 150 * 1024;

// The page's own fetches, as a first visit makes them: the service worker, once it takes over,
// would serve the app's files from its precache (bodies the page's responses do not carry),
// and its own precaching is not part of the page's load.
test.use({ serviceWorkers: 'block' });

test('a first load stays inside the size budget', async ({ page }) => {
  const sizes = new Map();
  page.on('response', async (res) => {
    if (!res.url().startsWith(ORIGIN + '/')) return;
    try {
      const body = await res.body();
      sizes.set(res.url(), zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length);
    } catch { /* redirects have no body */ }
  });
  await page.goto('/');
  await appReady(page);
  await page.waitForLoadState('networkidle');
  const total = [...sizes.values()].reduce((a, b) => a + b, 0);
  console.log(`first load: ${sizes.size} files, ${(total / 1024).toFixed(1)} KB brotli`);
  expect(sizes.size).toBeGreaterThanOrEqual(3);
  expect([...sizes.keys()].some((u) => u.endsWith('.wasm'))).toBe(true);
  expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
});
