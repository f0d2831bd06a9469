// Decode ceiling: bandwidth ÷ weights per token, two models side by side.
const { test, expect } = require('@playwright/test');
const { appReady, watchErrors } = require('./course');

async function openCard(page, query = '') {
  await page.goto('/why-size-wins/' + query);
  await appReady(page);
  const card = page.locator('[data-widget="decode-ceiling"]').first();
  await card.scrollIntoViewIfNeeded();
  return card;
}

test('the lesson example: 20 against 2.5 tok/s, 8x, labelled an upper bound', async ({ page }) => {
  const errors = watchErrors(page);
  const card = await openCard(page);
  await expect(card.getByTestId('decode-bandwidth')).toHaveValue('100');
  await expect(card.getByTestId('decode-model-gb-a')).toHaveValue('5');
  await expect(card.getByTestId('decode-model-gb-b')).toHaveValue('40');
  await expect(card.getByTestId('decode-tps-a')).toHaveText('20 tok/s');
  await expect(card.getByTestId('decode-tps-b')).toHaveText('2.5 tok/s');
  await expect(card.getByTestId('decode-ratio')).toHaveText('8× faster');
  await expect(card.getByText('Model A, upper bound')).toBeVisible();
  await expect(card.getByTestId('decode-worked')).toContainText('100 GB/s ÷ 5 GB = 20 tok/s at most');
  expect(errors).toEqual([]);
});

test('typing, stepping and GPU presets move both ceilings', async ({ page }) => {
  const card = await openCard(page);
  await card.getByTestId('decode-bandwidth').fill('200');
  await expect(card.getByTestId('decode-tps-a')).toHaveText('40 tok/s');
  await expect(card.getByTestId('decode-tps-b')).toHaveText('5 tok/s');
  await card.getByTestId('decode-model-gb-a').fill('10');
  await expect(card.getByTestId('decode-tps-a')).toHaveText('20 tok/s');
  await expect(card.getByTestId('decode-ratio')).toHaveText('4× faster');
  await card.getByTestId('decode-model-gb-b').press('ArrowDown');
  await expect(card.getByTestId('decode-model-gb-b')).toHaveValue('39');
  await card.getByTestId('decode-gpu').selectOption('h100-80');
  await expect(card.getByTestId('decode-bandwidth')).toHaveValue('3350');
  await card.getByRole('button', { name: /70B · FP16 140 GB/ }).click();
  await expect(card.getByTestId('decode-tps-b')).toHaveText('23.9 tok/s');
  await card.getByTestId('decode-model-gb-a').fill('280');
  await expect(card.getByTestId('decode-ratio')).toHaveText('2× slower');
  await card.getByTestId('decode-bandwidth').fill('3000');
  await expect(card.getByTestId('decode-gpu')).toHaveValue('custom');
});

test('bad input: a message by the field, last result kept and marked stale', async ({ page }) => {
  const card = await openCard(page);
  for (const [testid, bad, message] of [
    ['decode-bandwidth', '0', 'more than 0'],
    ['decode-bandwidth', 'fast', 'not a number'],
    ['decode-model-gb-a', '', 'Enter a number'],
    ['decode-model-gb-b', '-40', 'more than 0'],
    ['decode-model-gb-b', 'Infinity', 'finite'],
    ['decode-bandwidth', '1e9', 'at most'],
  ]) {
    await card.getByTestId(testid).fill(bad);
    await expect(card.getByRole('alert').filter({ hasText: message })).toBeVisible();
    await expect(card.getByTestId('decode-tps-a')).toHaveText('20 tok/s');
    await expect(card.locator('.output.stale')).toHaveCount(4);
    await expect(card).not.toContainText('NaN');
    await card.getByTestId(testid).fill({ 'decode-bandwidth': '100', 'decode-model-gb-a': '5', 'decode-model-gb-b': '40' }[testid]);
    await expect(card.locator('.output.stale')).toHaveCount(0);
  }
});

test('a shared link reproduces the comparison', async ({ page }) => {
  const card = await openCard(page);
  await card.getByTestId('decode-bandwidth').fill('400');
  await card.getByTestId('decode-model-gb-b').fill('80');
  await expect(page).toHaveURL(/dc\.bw=400/);
  await expect(page).toHaveURL(/dc\.b=80/);
  const other = await page.context().newPage();
  await other.goto(page.url());
  const again = await openCard(other, new URL(page.url()).search);
  await expect(again.getByTestId('decode-tps-a')).toHaveText('80 tok/s');
  await expect(again.getByTestId('decode-tps-b')).toHaveText('5 tok/s');
  await expect(again.getByTestId('decode-ratio')).toHaveText('16× faster');
});
