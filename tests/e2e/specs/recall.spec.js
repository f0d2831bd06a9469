// Recall cards: review by keyboard and by mouse, statistics, storage that loses nothing.
const { test, expect } = require('@playwright/test');
const { appReady, watchErrors } = require('./course');
const cards = require('../../../content/cards.json');

const KEY = 'ie-course:recall';
const ofLesson = (slug) => cards.filter((c) => c.lesson === slug);

async function openRecall(page, path = '/recall/') {
  await page.goto(path);
  await appReady(page);
  const widget = page.locator('[data-widget="recall"]');
  await expect(widget).toHaveCount(1);
  await widget.scrollIntoViewIfNeeded();
  return widget;
}

async function dueNow(page) {
  const text = await page.getByTestId('cards-due').textContent();
  expect(text).toMatch(/^\d+/);
  return parseInt(text, 10);
}

async function stored(page) {
  const raw = await page.evaluate((k) => localStorage.getItem(k), KEY);
  return raw ? JSON.parse(raw) : null;
}

async function gradeShown(page, grade) {
  const question = await page.getByTestId('card-question').textContent();
  await page.getByTestId('card-reveal').click();
  await expect(page.getByTestId('card-answer')).toBeVisible();
  await page.getByTestId(`card-grade-${grade}`).click();
  await expect(page.getByTestId('card-answer')).toHaveCount(0);
  return question;
}

test('three cards reviewed by keyboard alone, and the due count survives a reload', async ({ page }) => {
  const errors = watchErrors(page);
  const widget = await openRecall(page);
  await expect(page.getByTestId('cards-due')).toHaveText(`${cards.length} cards`);
  const area = widget.locator('.recall-review');

  // Keys do nothing while focus is elsewhere, or while typing in a field inside the widget.
  await page.locator('body').press('Space');
  await page.getByTestId('cards-import').focus();
  await page.keyboard.type(' 1');
  await expect(page.getByTestId('card-answer')).toHaveCount(0);
  await page.getByTestId('cards-import').fill('');

  // Reach the review with Tab, as a keyboard user would.
  await page.getByTestId('cards-retention').focus();
  await page.keyboard.press('Tab');
  await expect(area).toBeFocused();

  const seen = [];
  for (const [revealKey, gradeKey] of [['Space', '3'], ['Enter', 'Space'], ['Space', '1']]) {
    const q = await page.getByTestId('card-question').textContent();
    seen.push(q);
    await expect(page.getByTestId('card-answer')).toHaveCount(0);
    await page.keyboard.press(revealKey);
    await expect(page.getByTestId('card-answer')).toBeVisible();
    await expect(page.getByTestId('card-grade-good')).toContainText('10 min');
    await page.keyboard.press(gradeKey);
    await expect(page.getByTestId('card-answer')).toHaveCount(0);
    await expect(page.getByTestId('card-question')).not.toHaveText(q);
  }
  expect(new Set(seen).size).toBe(3);
  expect(seen[0]).toBe(cards[0].question);
  await expect(page.getByTestId('cards-due')).toHaveText(`${cards.length - 3} cards`);
  await expect(page.getByTestId('cards-learning')).toHaveText('3');

  const data = (await stored(page)).data;
  expect(data.log.map((r) => r.grade)).toEqual([3, 3, 1]);
  expect(data.log.map((r) => r.card)).toEqual(cards.slice(0, 3).map((c) => c.id));

  await page.reload();
  await appReady(page);
  await expect(page.getByTestId('cards-due')).toHaveText(`${cards.length - 3} cards`);
  await expect(page.getByTestId('card-question')).toHaveText(cards[3].question);
  expect(errors).toEqual([]);
});

test('the review, left alone after it appears, shows, stores and announces nothing; its first reveal and grade work', async ({ page }) => {
  const errors = watchErrors(page);
  for (const path of ['/recall/', '/overview/']) {
    const widget = await openRecall(page, path);
    const question = await page.getByTestId('card-question').textContent();
    // Idle twice over: the review has made ready its first reveal and grade (on a copy).
    await page.evaluate(() => new Promise((r) => requestIdleCallback(() => requestIdleCallback(r))));
    await page.waitForTimeout(300);
    expect(await stored(page)).toBeNull();
    await expect(page.getByTestId('card-answer')).toHaveCount(0);
    await expect(page.getByTestId('card-grade-good')).toHaveCount(0);
    await expect(page.getByTestId('card-question')).toHaveText(question);
    await expect(widget.locator('.recall-sr')).toHaveText('');
    expect(await page.evaluate(() => document.querySelectorAll('.recall-card').length)).toBe(1);

    expect(await gradeShown(page, 'good')).toBe(question);
    await expect(widget.locator('.recall-sr')).toContainText('Good: back in');
    const data = (await stored(page)).data;
    expect(data.log.map((r) => [r.card, r.grade])).toEqual([[data.log[0].card, 3]]);
    await page.evaluate(() => localStorage.clear());
  }
  expect(errors).toEqual([]);
});

test('a missed card comes back under a moving clock, and grade buttons show intervals', async ({ page }) => {
  await page.clock.install({ time: new Date('2026-03-02T09:00:00Z') });
  await openRecall(page);
  await page.getByTestId('card-reveal').click();
  await expect(page.getByTestId('card-grade-again')).toContainText('1 min');
  await expect(page.getByTestId('card-grade-hard')).toContainText('5 min');
  await expect(page.getByTestId('card-grade-good')).toContainText('10 min');
  await expect(page.getByTestId('card-grade-easy')).toContainText(/\d+ d/);
  await page.getByTestId('card-grade-again').click();
  expect(await dueNow(page)).toBe(cards.length - 1);
  await page.clock.fastForward('01:30');
  await expect(page.getByTestId('cards-due')).toHaveText(`${cards.length} cards`);
  // The card due again comes before the new ones.
  await expect(page.getByTestId('card-question')).toHaveText(cards[1].question); // pinned until graded
  await gradeShown(page, 'good');
  await expect(page.getByTestId('card-question')).toHaveText(cards[0].question);
});

test('a corrupt stored value is backed up and reported, and review still works', async ({ page }) => {
  const errors = watchErrors(page);
  await openRecall(page);
  const bad = '{"v":1,"data":{"log":[{"card":"x","at":"soon"}]}';
  await page.evaluate(([k, v]) => localStorage.setItem(k, v), [KEY, bad]);
  await page.reload();
  await appReady(page);
  const notice = page.getByTestId('storage-notice');
  await expect(notice).toContainText('recall');
  await expect(notice).toContainText('ie-course:backup:recall:');
  const backups = await page.evaluate(() =>
    Object.keys(localStorage).filter((k) => k.startsWith('ie-course:backup:recall:')).map((k) => localStorage.getItem(k)),
  );
  expect(backups).toEqual([bad]);
  await expect(page.getByTestId('cards-due')).toHaveText(`${cards.length} cards`);
  await gradeShown(page, 'good');
  expect((await stored(page)).data.log).toHaveLength(1);
  // Only one notice and one backup: the bad value was replaced, not backed up at every write.
  await expect(notice).toHaveCount(1);
  expect(errors).toEqual([]);
});

test('export, then import into a fresh profile, gives the same state; importing twice adds nothing', async ({ page, browser }) => {
  await openRecall(page);
  await gradeShown(page, 'good');
  await gradeShown(page, 'easy');
  await gradeShown(page, 'hard');
  const due = await dueNow(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('cards-export').click()]);
  expect(download.suggestedFilename()).toMatch(/^ie-course-recall-.*\.json$/);
  const json = await page.getByTestId('cards-export-json').inputValue();
  expect(JSON.parse(json).data.log).toHaveLength(3);
  const before = (await stored(page)).data;

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await openRecall(other);
  await expect(other.getByTestId('cards-due')).toHaveText(`${cards.length} cards`);
  await other.getByTestId('cards-import').fill(json);
  await other.getByTestId('cards-import-apply').click();
  await expect(other.getByTestId('cards-import-message')).toContainText('3 reviews added');
  await expect(other.getByTestId('cards-due')).toHaveText(`${due} cards`);
  await expect(other.getByTestId('cards-review')).toHaveText(await page.getByTestId('cards-review').textContent());
  const after = (await stored(other)).data;
  expect(after.log).toEqual(before.log);
  expect(after.cards).toEqual(before.cards);
  await other.getByTestId('cards-import-apply').click();
  await expect(other.getByTestId('cards-import-message')).toContainText('0 reviews added');
  expect((await stored(other)).data.log).toHaveLength(3);

  // Something that is not an export is refused with a message, and changes nothing.
  await other.getByTestId('cards-import').fill('{"hello": 1}');
  await other.getByTestId('cards-import-apply').click();
  await expect(other.getByTestId('cards-import-message')).toContainText('not a recall export');
  await expect(other.getByTestId('cards-import-message')).toHaveAttribute('role', 'alert');
  expect((await stored(other)).data.log).toHaveLength(3);
  await fresh.close();
});

test('two tabs reviewing at once keep both reviews', async ({ context }) => {
  const a = await context.newPage();
  const b = await context.newPage();
  await openRecall(a);
  await openRecall(b);
  // B shows the first card's answer; meanwhile A grades that card and the next.
  await b.getByTestId('card-reveal').click();
  await a.bringToFront(); // (a background tab only waits longer for its clicks)
  await gradeShown(a, 'good');
  await gradeShown(a, 'good');
  await b.bringToFront();
  await expect(b.getByTestId('card-answer')).toBeVisible(); // B's card stays on screen
  await b.getByTestId('card-grade-hard').click();
  // B's write lands a moment after its click.
  await expect.poll(async () => (await stored(a)).data.log.length).toBe(3);
  const log = (await stored(a)).data.log;
  expect(log.map((r) => r.grade).sort()).toEqual([2, 3, 3]);
  // Each tab sees the other's reviews without a reload.
  await expect(a.getByTestId('cards-due')).toHaveText(`${cards.length - 2} cards`);
  await expect(b.getByTestId('cards-due')).toHaveText(`${cards.length - 2} cards`);
  await a.reload();
  await appReady(a);
  await expect(a.getByTestId('cards-due')).toHaveText(`${cards.length - 2} cards`);
});

test('each lesson ends with its own cards, which share progress with the recall page', async ({ page }) => {
  const mine = ofLesson('overview');
  const widget = await openRecall(page, '/overview/');
  await expect(page.getByTestId('cards-due')).toHaveText(`${mine.length} cards`);
  await expect(page.getByTestId('card-question')).toHaveText(mine[0].question);
  await page.getByTestId('card-reveal').click();
  await expect(page.getByTestId('card-answer')).toHaveText(mine[0].answer);
  await page.getByTestId('card-grade-easy').click();
  await expect(page.getByTestId('cards-due')).toHaveText(`${mine.length - 1} cards`);
  // The lesson ends with its key points, and its cards come after them.
  const order = await page.evaluate(() => {
    const heads = [...document.querySelectorAll('main h2')];
    const last = heads[heads.length - 1];
    const cards = document.querySelector('main [data-widget="recall"]');
    return [last.textContent.replace(/^#/, '').trim(), !!(last.compareDocumentPosition(cards) & Node.DOCUMENT_POSITION_FOLLOWING)];
  });
  expect(order).toEqual(['Key points', true]);
  await widget.getByRole('link', { name: 'recall page' }).click();
  await appReady(page);
  await expect(page).toHaveURL(/\/recall\/$/);
  await expect(page.getByTestId('cards-due')).toHaveText(`${cards.length - 1} cards`);
});

test('a move in the app to another lesson shows that lesson\'s cards, and keeps the reviews of the first', async ({ page }) => {
  // Each lesson's module carries its own lesson's cards only: the move must bring the cards of
  // the lesson it lands on, from the module that carries them.
  const errors = watchErrors(page);
  const first = ofLesson('about-your-app');
  await openRecall(page, '/about-your-app/');
  await expect(page.getByTestId('card-question')).toHaveText(first[0].question);
  await gradeShown(page, 'good');
  const menu = page.getByTestId('menu-button');
  if (await menu.isVisible()) await menu.click();
  // The overview shows no widget but its cards, which the first page's module could serve.
  await page.locator('nav#toc a[href$="overview/"]').click();
  await expect(page).toHaveURL(/\/overview\/$/);
  const next = ofLesson('overview');
  const widget = page.locator('[data-widget="recall"]');
  await widget.scrollIntoViewIfNeeded();
  await expect(page.getByTestId('cards-due')).toHaveText(`${next.length} cards`);
  await expect(page.getByTestId('card-question')).toHaveText(next[0].question);
  await gradeShown(page, 'easy');
  const log = (await stored(page)).data.log.map((r) => r.card);
  expect(log).toEqual([first[0].id, next[0].id]);
  expect(errors).toEqual([]);
});

test('filter by lesson, learn ahead when nothing is due, statistics and the forecast chart', async ({ page }) => {
  const mine = ofLesson('chapter-map');
  await openRecall(page);
  await page.getByTestId('cards-filter').selectOption('chapter-map');
  await expect(page.getByTestId('cards-due')).toHaveText(`${mine.length} card${mine.length === 1 ? '' : 's'}`);
  for (const c of mine) {
    await expect(page.getByTestId('card-question')).toHaveText(c.question);
    await gradeShown(page, 'easy');
  }
  await expect(page.getByTestId('card-question')).toHaveCount(0);
  await expect(page.getByTestId('cards-due')).toHaveText('0 cards');
  await expect(page.getByText('Nothing is due for this lesson right now.')).toBeVisible();
  await expect(page.getByTestId('cards-review')).toHaveText(String(mine.length));
  await expect(page.getByTestId('cards-streak')).toHaveText('1 day');
  const chart = page.getByTestId('cards-forecast');
  await expect(chart).toHaveAttribute('aria-label', new RegExp(`^${mine.length} reviews? due over the next 30 days`));
  await expect(chart.locator('svg rect')).not.toHaveCount(0);

  await page.getByTestId('cards-learn-ahead').click();
  await expect(page.getByTestId('card-question')).toHaveText(mine[0].question);
  await expect(page.locator('.recall-from')).toContainText('learning ahead');

  await page.getByTestId('cards-filter').selectOption('');
  await expect(page.getByTestId('cards-due')).toHaveText(`${cards.length - mine.length} cards`);
});

test('desired retention is checked and kept; reset asks first', async ({ page }) => {
  await openRecall(page);
  const field = page.getByTestId('cards-retention');
  await expect(field).toHaveValue('90');
  await field.fill('40');
  await expect(page.getByRole('alert').filter({ hasText: 'between 70 % and 99 %' })).toBeVisible();
  await field.fill('95');
  await expect(page.getByRole('alert').filter({ hasText: 'between' })).toHaveCount(0);
  await gradeShown(page, 'good');
  expect((await stored(page)).data.retention).toBeCloseTo(0.95);
  await page.reload();
  await appReady(page);
  await expect(page.getByTestId('cards-retention')).toHaveValue('95');

  await page.getByTestId('cards-reset').click();
  await expect(page.getByText('Erase all 1 review')).toBeVisible();
  await page.getByTestId('cards-reset-cancel').click();
  expect((await stored(page)).data.log).toHaveLength(1);
  await page.getByTestId('cards-reset').click();
  await page.getByTestId('cards-reset-confirm').click();
  await expect(page.getByTestId('cards-due')).toHaveText(`${cards.length} cards`);
  expect((await stored(page)).data.log).toHaveLength(0);
  const keys = await page.evaluate(() => Object.keys(localStorage));
  expect(keys.every((k) => k.startsWith('ie-course:'))).toBe(true);
});
