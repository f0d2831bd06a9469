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

// Under stress: every kind of write the course makes, each with its page and one action that
// changes what is stored (a second call changes it again).
const WRITES = {
  theme: { path: '/', write: (page) => page.getByTestId('theme-toggle').click() },
  progress: {
    path: '/overview/',
    // The button is at the lesson's end: scrolling to it marks the lesson read and records the
    // heading above it, writes of their own that must land before the test takes what is kept.
    settle: async (page) => {
      await page.getByTestId('mark-read').scrollIntoViewIfNeeded();
      await expect.poll(async () => JSON.parse((await raw(page, 'progress')) || '{}').data?.last?.heading || '').not.toBe('');
    },
    write: (page) => page.getByTestId('mark-read').click(),
  },
  recall: {
    path: '/recall/',
    write: async (page) => {
      const card = page.locator('[data-widget="recall"]');
      await card.getByTestId('card-reveal').click();
      await card.getByTestId('card-grade-good').click();
      await expect(card.getByTestId('card-answer')).toHaveCount(0);
    },
  },
  'mini-eval': {
    path: '/model-selection/',
    write: (page) => page.locator('[data-widget="mini-eval"] li.eval-case').first().getByTestId('eval-candidate-pass').click(),
  },
  'try-it': {
    path: '/why-size-wins/',
    write: (page) => page.locator('[data-widget="try-it"]').getByTestId('tryit-task').fill(`A task written at ${Math.random()}`),
  },
  distillation: {
    path: '/model-selection/',
    write: async (page) => {
      const field = page.locator('[data-widget="distillation"]').getByTestId('distill-temperature');
      await field.fill((await field.inputValue()) === '3' ? '4' : '3');
    },
  },
  'workload-sort': {
    path: '/about-your-app/',
    write: async (page) => {
      const card = page.locator('[data-widget="workload-sort"]');
      const side = (await card.getByTestId('sort-zone-online').getByTestId('workload-chat').count()) ? 'offline' : 'online';
      await card.getByTestId('workload-chat').focus();
      await page.keyboard.press('Enter');
      await card.getByTestId(`sort-to-${side}`).focus();
      await page.keyboard.press('Enter');
    },
  },
};

const raw = (page, name) => page.evaluate((k) => localStorage.getItem(k), `ie-course:${name}`);
const backups = (page) =>
  page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('ie-course:backup:')));

/** Opens the page of one kind of write in front, as a reader would look at it, and waits for its
 * widget (if any) to be live: a tab in the background gets no rendering updates, so no
 * IntersectionObserver reports, and the loader waits for one to mount a widget near the screen. */
async function open(page, name) {
  await page.bringToFront();
  await page.goto(WRITES[name].path);
  await appReady(page);
  await expect(page.locator('[data-widget-slot] .widget-loading')).toHaveCount(0);
}

/** Writes and waits until the stored value has changed from `before`. */
async function writeChanging(page, name, before) {
  await WRITES[name].write(page);
  await expect.poll(() => raw(page, name)).not.toBe(before);
  return raw(page, name);
}

for (const name of Object.keys(WRITES)) {
  test(`storage full before a ${name} write: the reader is told, the stored value is kept, and the next write lands`, async ({ page }) => {
    const errors = watchErrors(page);
    await page.addInitScript(() => {
      const setItem = Storage.prototype.setItem;
      Storage.prototype.setItem = function (key, value) {
        if (window.storageFull) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        return setItem.call(this, key, value);
      };
    });
    await open(page, name);
    await WRITES[name].settle?.(page);
    const kept = await writeChanging(page, name, await raw(page, name));
    // The store is full: every write the browser is asked for fails, as it does at the quota.
    await page.evaluate(() => { window.storageFull = true; });
    await WRITES[name].write(page);
    // (A write in two steps, such as picking then placing a workload, may give a notice each.)
    await expect(page.getByTestId('storage-notice').filter({ hasText: /QuotaExceeded|full/i }).first()).toBeVisible();
    expect(await raw(page, name)).toBe(kept);
    expect(await backups(page)).toEqual([]);
    // Room again: the next change is stored, and it parses.
    await page.evaluate(() => { window.storageFull = false; });
    // (One change first: a toggle may come back to what is stored.)
    await WRITES[name].write(page);
    const now = await writeChanging(page, name, kept);
    expect(() => JSON.parse(now)).not.toThrow();
    expect(errors).toEqual([]);
  });

  test(`a ${name} value from a newer version is backed up whole, and the widget still works`, async ({ page }) => {
    const errors = watchErrors(page);
    await open(page, name);
    const future = JSON.stringify({ v: 99, data: { from: 'a later version of the course' } });
    await page.evaluate(([k, v]) => localStorage.setItem(k, v), [`ie-course:${name}`, future]);
    await open(page, name);
    await expect(page.getByTestId('storage-notice')).toContainText('newer version');
    const copies = await page.evaluate(
      (n) => Object.keys(localStorage).filter((k) => k.startsWith(`ie-course:backup:${n}:`)).map((k) => localStorage.getItem(k)),
      name,
    );
    expect(copies).toEqual([future]);
    const now = await writeChanging(page, name, future);
    expect(JSON.parse(now).v).toBeLessThan(99);
    expect(errors).toEqual([]);
  });
}

test('two tabs writing every store in turns leave every value readable, recall reviews from both kept', async ({ browser }) => {
  // Some thirty page loads and four writes per store: about 23 s alone, more beside other tests.
  test.setTimeout(90_000);
  const context = await browser.newContext();
  const [a, b] = [await context.newPage(), await context.newPage()];
  const errorsA = watchErrors(a);
  const errorsB = watchErrors(b);
  for (const name of Object.keys(WRITES)) {
    await open(a, name);
    await open(b, name);
    for (const tab of [a, b, a, b]) {
      await tab.bringToFront();
      await WRITES[name].write(tab);
      // A tab that has not seen the other's change may store the same value again.
      await tab.waitForTimeout(300);
    }
    const last = await raw(a, name);
    expect(last, name).not.toBeNull();
    expect(() => JSON.parse(last), name).not.toThrow();
  }
  // Recall merges what the other tab stored: all four reviews are there.
  const stored = JSON.parse(await raw(a, 'recall'));
  expect(stored.data.log.length).toBeGreaterThanOrEqual(4);
  expect(await backups(a)).toEqual([]);
  // A third tab opens every page with no notice about stored data.
  const c = await context.newPage();
  const errorsC = watchErrors(c);
  for (const name of Object.keys(WRITES)) {
    await open(c, name);
    await expect(c.getByTestId('storage-notice')).toHaveCount(0);
  }
  expect([...errorsA, ...errorsB, ...errorsC]).toEqual([]);
  await context.close();
});
