// The mini eval at real-eval scale: 50,000 pasted cases import without a page error, the
// figures are right, only a page of cases is in the document, a toggle at 5,000 cases moves
// the figures, and a paste over the limit is refused at once with nothing stored lost.
const { test, expect } = require('@playwright/test');
const { appReady, watchErrors, openWidget } = require('./course');

test.describe.configure({ timeout: 120_000 });

const openEval = (page) => openWidget(page, '/model-selection/', 'mini-eval');

/** `n` lines of pass/fail: every 7th regressed, every 11th fixed, every 13th failing both. */
function columns(n) {
  const lines = [];
  const counts = { regressed: 0, fixed: 0, still: 0, unchanged: 0, base: 0, cand: 0 };
  for (let i = 0; i < n; i++) {
    let line;
    if (i % 7 === 0) { line = 'pass\tfail'; counts.regressed++; counts.base++; }
    else if (i % 11 === 0) { line = 'fail\tpass'; counts.fixed++; counts.cand++; }
    else if (i % 13 === 0) { line = 'fail\tfail'; counts.still++; }
    else { line = 'pass\tpass'; counts.unchanged++; counts.base++; counts.cand++; }
    lines.push(line);
  }
  return { text: lines.join('\n'), counts };
}

/** A share as the widget writes it: at most one decimal, `92.2%`, `90%`. */
function percent(passes, n) {
  return `${Math.round((passes / n) * 1000) / 10}%`;
}

/** Pastes `text` into the import box the way a paste does (one input event) and imports it. */
async function paste(card, text) {
  await card.getByTestId('eval-import').evaluate((el, t) => {
    el.value = t;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
  await card.getByTestId('eval-import-apply').click();
}

const nodes = (page) => page.evaluate(() => document.getElementsByTagName('*').length);

test('the lesson eval shows all ten cases and no pager', async ({ page }) => {
  const card = await openEval(page);
  await expect(card.locator('li.eval-case')).toHaveCount(10);
  await expect(card.getByTestId('eval-pager')).toHaveCount(0);
});

test('50,000 pasted cases: no page error, the right figures, a page of cases in the document', async ({ page }) => {
  const errors = watchErrors(page);
  const card = await openEval(page);
  const before = await nodes(page);
  const n = 50_000;
  const { text, counts } = columns(n);
  await paste(card, text);
  const message = card.getByTestId('eval-import-message');
  await expect(message).toContainText('replaced the eval with 50000 cases', { timeout: 60_000 });
  await expect(card.getByTestId('eval-acc-baseline')).toHaveText(percent(counts.base, n));
  await expect(card.getByTestId('eval-acc-candidate')).toHaveText(percent(counts.cand, n));
  await expect(card).toContainText(`${counts.base} of ${n} · 95% interval`);
  await expect(card.getByTestId('eval-bucket-regressed').locator('.eval-bucket-count')).toHaveText(counts.regressed.toLocaleString('en-US'));
  await expect(card.getByTestId('eval-bucket-fixed').locator('.eval-bucket-count')).toHaveText(counts.fixed.toLocaleString('en-US'));
  await expect(card.getByTestId('eval-bucket-still-failing').locator('.eval-bucket-count')).toHaveText(counts.still.toLocaleString('en-US'));
  await expect(card.getByTestId('eval-mcnemar-note')).toContainText(`${counts.regressed} regressed against ${counts.fixed} fixed`);
  await expect(card.getByTestId('eval-verdict')).toHaveText(/^rejected: candidate accuracy/);
  // Only a page of editors, capped bucket lists and diffs.
  await expect(card.locator('li.eval-case')).toHaveCount(20);
  await expect(card.getByTestId('eval-page-status')).toHaveText('1–20 of 50,000 cases · page 1 of 2,500');
  await expect(card.getByTestId('eval-bucket-regressed').locator('[data-case]')).toHaveCount(50);
  await expect(card.getByTestId('eval-bucket-regressed')).toContainText(`and ${(counts.regressed - 50).toLocaleString('en-US')} more`);
  await expect(card.locator('.eval-diff')).toHaveCount(20);
  const after = await nodes(page);
  expect(after - before).toBeLessThan(2_500);
  expect(after).toBeLessThan(6_000);
  // The last page, then one bucket's cases, then a search.
  await card.getByTestId('eval-page-last').click();
  await expect(card.locator('li.eval-case').last()).toHaveAttribute('data-case', 'case 50000');
  await card.getByTestId('eval-bucket-fixed').getByTestId('eval-bucket-show').click();
  await expect(card.getByTestId('eval-page-status')).toHaveText(`1–20 of ${counts.fixed.toLocaleString('en-US')} cases · page 1 of ${Math.ceil(counts.fixed / 20).toLocaleString('en-US')}`);
  await expect(card.locator('li.eval-case').first()).toHaveAttribute('data-case', 'case 12');
  await card.getByTestId('eval-filter').selectOption('all');
  await card.getByTestId('eval-search').fill('case 49997');
  await expect(card.locator('li.eval-case')).toHaveCount(1);
  await expect(card.locator('li.eval-case')).toHaveAttribute('data-case', 'case 49997');
  // Turning that case's candidate to fail moves the figures.
  await card.locator('li.eval-case').getByTestId('eval-candidate-pass').uncheck();
  await expect(card.getByTestId('eval-acc-candidate')).toHaveText(percent(counts.cand - 1, n));
  await expect(card.getByTestId('eval-bucket-regressed').locator('.eval-bucket-count')).toHaveText((counts.regressed + 1).toLocaleString('en-US'));
  // The export is made when clicked, and carries every case as it is now.
  const json = card.getByTestId('eval-export-json');
  await expect(json).toHaveAttribute('href', '#');
  const [download] = await Promise.all([page.waitForEvent('download'), json.click()]);
  const data = JSON.parse(require('fs').readFileSync(await download.path(), 'utf8'));
  expect(data.cases).toHaveLength(n);
  expect(data.cases[49_996]).toMatchObject({ name: 'case 49997', baseline_verdict: 'pass', candidate_verdict: 'fail' });
  // Saved once edits pause, and back after a reload.
  await page.waitForTimeout(1_500);
  await page.reload();
  await appReady(page);
  const again = page.locator('[data-widget="mini-eval"]');
  await expect(again.getByTestId('eval-acc-candidate')).toHaveText(percent(counts.cand - 1, n), { timeout: 20_000 });
  await expect(again.getByTestId('eval-page-status')).toHaveText('1–20 of 50,000 cases · page 1 of 2,500');
  expect(errors).toEqual([]);
});

test('a verdict toggle at 5,000 cases moves the figures', async ({ page }) => {
  const errors = watchErrors(page);
  const card = await openEval(page);
  const n = 5_000;
  const { text, counts } = columns(n);
  await paste(card, text);
  await expect(card.getByTestId('eval-import-message')).toContainText('5000 cases', { timeout: 30_000 });
  await expect(card.getByTestId('eval-acc-baseline')).toHaveText(percent(counts.base, n));
  const second = card.locator('li.eval-case[data-case="case 2"]');
  await second.getByTestId('eval-baseline-pass').uncheck();
  await expect(card.getByTestId('eval-acc-baseline')).toHaveText(percent(counts.base - 1, n));
  await expect(card.getByTestId('eval-bucket-fixed').locator('.eval-bucket-count')).toHaveText(String(counts.fixed + 1));
  await expect(card.getByTestId('eval-bucket-fixed').locator('[data-case]').first()).toHaveAttribute('data-case', 'case 2');
  await second.getByTestId('eval-baseline-verdict').selectOption('pass');
  await expect(card.getByTestId('eval-acc-baseline')).toHaveText(percent(counts.base, n));
  expect(await nodes(page)).toBeLessThan(6_000);
  expect(errors).toEqual([]);
});

test('a new eval opens at its first page; an edit or verdicts set in place keep the page', async ({ page }) => {
  const errors = watchErrors(page);
  const card = await openEval(page);
  const status = card.getByTestId('eval-page-status');
  const message = card.getByTestId('eval-import-message');
  await paste(card, columns(1_000).text);
  await expect(status).toHaveText('1–20 of 1,000 cases · page 1 of 50', { timeout: 30_000 });
  await card.getByTestId('eval-page-next').click();
  await card.getByTestId('eval-page-next').click();
  await expect(status).toHaveText('41–60 of 1,000 cases · page 3 of 50');
  // An edit on the page, and columns of the same length (verdicts set in place), keep it.
  await card.locator('li.eval-case').first().getByTestId('eval-candidate-pass').uncheck();
  await expect(card.locator('li.eval-case').first().getByTestId('eval-candidate-pass')).not.toBeChecked();
  await paste(card, columns(1_000).text);
  await expect(message).toContainText('Set both verdicts of all 1000 cases');
  await expect(status).toHaveText('41–60 of 1,000 cases · page 3 of 50');
  await expect(card.locator('li.eval-case').first()).toHaveAttribute('data-case', 'case 41');
  // Another eval replaces this one: its first page.
  await paste(card, columns(20_000).text);
  await expect(message).toContainText('replaced the eval with 20000 cases', { timeout: 30_000 });
  await expect(status).toHaveText('1–20 of 20,000 cases · page 1 of 1,000');
  await expect(card.locator('li.eval-case').first()).toHaveAttribute('data-case', 'case 1');
  await expect(card.locator('h4.eval-heading', { hasText: /^The cases \(/ })).toHaveText('The cases (20,000)');
  // On a phone too, the status has a line of its own above the four buttons, which share one.
  await page.setViewportSize({ width: 375, height: 800 });
  const boxes = await Promise.all(['eval-page-status', 'eval-page-first', 'eval-page-prev', 'eval-page-next', 'eval-page-last']
    .map((id) => card.getByTestId(id).boundingBox()));
  const [line, ...buttons] = boxes;
  for (const b of buttons) {
    expect(Math.abs(b.y - buttons[0].y)).toBeLessThan(2);
    expect(b.y).toBeGreaterThanOrEqual(line.y + line.height - 1);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  // A reset, then its undo: the 20,000 cases are back, at their first page.
  await card.getByTestId('eval-page-last').click();
  await expect(status).toHaveText('19,981–20,000 of 20,000 cases · page 1,000 of 1,000');
  await card.getByTestId('eval-reset').click();
  await expect(card.locator('li.eval-case')).toHaveCount(10);
  await card.getByTestId('eval-undo').click();
  await expect(status).toHaveText('1–20 of 20,000 cases · page 1 of 1,000');
  // The undo of an import too.
  await card.getByTestId('eval-page-next').click();
  await expect(status).toHaveText('21–40 of 20,000 cases · page 2 of 1,000');
  await paste(card, columns(30).text);
  await expect(status).toHaveText('1–20 of 30 cases · page 1 of 2');
  await card.getByTestId('eval-page-next').click();
  await expect(status).toHaveText('21–30 of 30 cases · page 2 of 2');
  await card.getByTestId('eval-undo').click();
  await expect(status).toHaveText('1–20 of 20,000 cases · page 1 of 1,000');
  expect(errors).toEqual([]);
});

test('a paste too long to show is held beside the field, and Import reads it', async ({ page, context }) => {
  const errors = watchErrors(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const card = await openEval(page);
  const input = card.getByTestId('eval-import');
  const held = card.getByTestId('eval-import-held');
  const copy = (t) => page.evaluate((t) => navigator.clipboard.writeText(t), t);
  const pasteKeys = async () => {
    await input.focus();
    await page.keyboard.press('Control+V');
  };
  // A short paste goes into the field as usual.
  await copy('pass\tfail\nfail\tpass');
  await pasteKeys();
  await expect(input).toHaveValue('pass\tfail\nfail\tpass');
  await expect(held).toHaveCount(0);
  // 50,000 lines: a field that long would cost the page a frame of over half a second to lay
  // out, so the paste is held beside it, counted, and the field is left empty.
  const n = 50_000;
  const { text, counts } = columns(n);
  await copy(text);
  await pasteKeys();
  await expect(held).toContainText(/^50,000 lines \(\d+ KB\) pasted, kept out of the box so that the page stays quick: Import reads them\./);
  await expect(input).toHaveValue('');
  // Typing in the field drops it; so does Discard.
  await input.pressSequentially('p');
  await expect(held).toHaveCount(0);
  await input.fill('');
  await pasteKeys();
  await expect(held).toBeVisible();
  await card.getByTestId('eval-import-discard').click();
  await expect(held).toHaveCount(0);
  // Held again, then imported: every case, and the note gone.
  await pasteKeys();
  await expect(held).toBeVisible();
  await card.getByTestId('eval-import-apply').click();
  await expect(card.getByTestId('eval-import-message')).toContainText('replaced the eval with 50000 cases', { timeout: 60_000 });
  await expect(held).toHaveCount(0);
  await expect(card.getByTestId('eval-acc-baseline')).toHaveText(percent(counts.base, n));
  await expect(card.getByTestId('eval-acc-candidate')).toHaveText(percent(counts.cand, n));
  await expect(input).toHaveValue('');
  expect(errors).toEqual([]);
});

test('a paste over 1 MB is refused at once, and what was stored stays', async ({ page }) => {
  const errors = watchErrors(page);
  const card = await openEval(page);
  await card.locator('li.eval-case[data-case="count users"]').getByTestId('eval-baseline-pass').uncheck();
  await expect(card.getByTestId('eval-acc-baseline')).toHaveText('80%');
  const stored = await page.evaluate(() => localStorage.getItem('ie-course:mini-eval'));
  const alert = card.getByRole('alert').filter({ hasText: '1 MB' });
  const input = card.getByTestId('eval-import');
  // A real paste of 5 MB: kept out of the field and refused in the paste handler itself, with
  // its message on the screen by the next frame (a refusal that waited for a timer, or read
  // the text into the field first, fails). The handler's time is printed, not asserted: speed
  // is the benchmark's to measure.
  const pasted = await input.evaluate(async (el, n) => {
    const data = new DataTransfer();
    data.setData('text/plain', 'pass\tfail\n'.repeat(n));
    const ev = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
    const t0 = performance.now();
    el.dispatchEvent(ev);
    const ms = performance.now() - t0;
    await new Promise((r) => requestAnimationFrame(r));
    const message = el.closest('section.widget').querySelector('[data-testid="eval-import-message"]');
    return { ms, prevented: ev.defaultPrevented, value: el.value.length, message: message ? message.textContent : '' };
  }, 500_000);
  const line = `a 5 MB paste refused in ${pasted.ms.toFixed(1)} ms`;
  console.log(line);
  test.info().annotations.push({ type: 'timing', description: line });
  expect(pasted.prevented).toBe(true);
  expect(pasted.value).toBe(0);
  expect(pasted.message).toContain('The text is 5,000,000 bytes; the limit is 1 MB');
  await expect(alert).toContainText('The text is 5,000,000 bytes; the limit is 1 MB');
  await expect(input).toHaveValue('');
  // Text put in the field some other way: refused on its input event and emptied out (the
  // browser's own work on 2 MB of field text is not timed here).
  await input.evaluate((el, n) => {
    el.value = 'pass\tfail\n'.repeat(n);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, 200_000);
  await expect(input).toHaveValue('');
  await expect(alert).toContainText('The text is 2,000,000 bytes; the limit is 1 MB');
  await expect(alert).toContainText('Nothing was changed');
  // Import says so again.
  await card.getByTestId('eval-import-apply').click();
  await expect(alert).toContainText('2,000,000 bytes');
  await expect(card.getByTestId('eval-acc-baseline')).toHaveText('80%');
  await expect(card.locator('li.eval-case')).toHaveCount(10);
  expect(await page.evaluate(() => localStorage.getItem('ie-course:mini-eval'))).toBe(stored);
  await page.reload();
  await appReady(page);
  await expect(page.getByTestId('eval-acc-baseline')).toHaveText('80%');
  expect(errors).toEqual([]);
});
