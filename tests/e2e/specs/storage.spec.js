// Stored data: corrupt values are backed up and reported, blocked storage still works.
const { test, expect } = require('@playwright/test');
const { watchErrors, appReady } = require('./course');

test('a corrupted stored value still lets the app load, shows a notice and keeps a backup', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await appReady(page); // so that only the reload below reads the value
  await page.evaluate(() => localStorage.setItem('ie-course:theme', '{"v":1,"data":'));
  await page.reload();
  await appReady(page);
  const notice = page.getByTestId('storage-notice');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('theme');
  await expect(notice).toContainText('ie-course:backup:theme:');
  const backups = await page.evaluate(() =>
    Object.keys(localStorage).filter((k) => k.startsWith('ie-course:backup:theme:')).map((k) => localStorage.getItem(k)),
  );
  expect(backups).toEqual(['{"v":1,"data":']);
  // The app works: the theme toggle saves a good value over the bad one.
  await page.getByTestId('theme-toggle').click();
  const stored = JSON.parse(await page.evaluate(() => localStorage.getItem('ie-course:theme')));
  expect(stored.v).toBe(1);
  await notice.getByRole('button', { name: 'Dismiss this notice' }).click();
  await expect(notice).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a value from a newer version is backed up, not dropped', async ({ page }) => {
  await page.goto('/');
  await appReady(page);
  await page.evaluate(() => localStorage.setItem('ie-course:theme', '{"v":99,"data":"sepia"}'));
  await page.reload();
  await appReady(page);
  await expect(page.getByTestId('storage-notice')).toContainText('newer version');
  const keys = await page.evaluate(() => Object.keys(localStorage));
  expect(keys.some((k) => k.startsWith('ie-course:backup:theme:'))).toBe(true);
});

test('with storage blocked the app works in memory and says so', async ({ page }) => {
  const errors = watchErrors(page);
  await page.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', {
      configurable: true,
      get() { throw new DOMException('The operation is insecure.', 'SecurityError'); },
    });
  });
  await page.goto('/');
  await appReady(page);
  await expect(page.getByTestId('storage-notice')).toContainText('blocking storage');
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', /light|dark/);
  await expect(page.getByTestId('weight-params')).toHaveCount(0); // title page: no widget
  expect(errors).toEqual([]);
});

test('a failed write (quota) shows a notice', async ({ page }) => {
  await page.addInitScript(() => {
    const original = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key, value) {
      if (key === 'ie-course:theme') throw new DOMException('full', 'QuotaExceededError');
      return original.call(this, key, value);
    };
  });
  await page.goto('/');
  await appReady(page);
  await page.getByTestId('theme-toggle').click();
  await expect(page.getByTestId('storage-notice')).toContainText('QuotaExceededError');
});
