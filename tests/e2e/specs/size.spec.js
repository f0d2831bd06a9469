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
  // Every file the page fetched, by its address; each is fetched again here to be weighed, as
  // the page's own copy of a streamed body (the wasm's) is not always kept for a test to read.
  const fetched = new Set();
  page.on('response', (res) => {
    if (res.url().startsWith(ORIGIN + '/') && res.status() === 200) fetched.add(res.url());
  });
  await page.goto('/');
  await appReady(page);
  await page.waitForLoadState('networkidle');
  const sizes = new Map();
  for (const url of fetched) {
    const body = await (await page.request.get(url)).body();
    sizes.set(url, zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length);
  }
  const total = [...sizes.values()].reduce((a, b) => a + b, 0);
  console.log(`first load: ${sizes.size} files, ${(total / 1024).toFixed(1)} KB brotli`);
  expect(sizes.size).toBeGreaterThanOrEqual(3);
  expect([...sizes.keys()].some((u) => u.endsWith('.wasm'))).toBe(true);
  expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
});
