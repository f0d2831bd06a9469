// Fleet swap: the same traffic on a smaller model.
const { test, expect } = require('@playwright/test');
const { appReady } = require('./course');

async function openCard(page, query = '') {
  await page.goto('/why-size-wins/' + query);
  await appReady(page);
  const card = page.locator('[data-widget="fleet-swap"]').first();
  await card.scrollIntoViewIfNeeded();
  return card;
}

test('the defaults give 400,000,000 tokens a day and 8 GPUs -> 1', async ({ page }) => {
  const card = await openCard(page);
  await expect(card.getByTestId('fleet-tokens-per-day')).toHaveText('400,000,000 tokens');
  await expect(card.getByTestId('fleet-ratio')).toHaveText('8×');
  await expect(card.getByTestId('fleet-small-gpus')).toHaveText('1 GPU');
  await expect(card.getByTestId('fleet-traffic')).toHaveText(/^8× /);
  await expect(card.getByTestId('fleet-before').locator('.gpu-square')).toHaveCount(8);
  await expect(card.getByTestId('fleet-after').locator('.gpu-square')).toHaveCount(1);
  await expect(card.getByTestId('fleet-worked')).toContainText('1,000,000 requests × 400 tokens = 400,000,000 tokens a day');
});

test('traffic, sizes and fleet change the result; presets fill the fields', async ({ page }) => {
  const card = await openCard(page);
  await card.getByRole('button', { name: '10M' }).click();
  await expect(card.getByTestId('fleet-tokens-per-day')).toHaveText('4,000,000,000 tokens');
  await card.getByTestId('fleet-tokens').fill('250');
  await expect(card.getByTestId('fleet-tokens-per-day')).toHaveText('2,500,000,000 tokens');
  await card.getByTestId('fleet-gpus').fill('20');
  await expect(card.getByTestId('fleet-small-gpus')).toHaveText('3 GPUs');
  await card.getByRole('button', { name: /8B · FP16 16 GB/ }).click();
  await expect(card.getByTestId('fleet-ratio')).toHaveText('2.5×');
  await expect(card.getByTestId('fleet-small-gpus')).toHaveText('8 GPUs');
  await card.getByTestId('fleet-large-gb').fill('140');
  await expect(card.getByTestId('fleet-ratio')).toHaveText('8.75×');
  await card.getByTestId('fleet-gpus').press('ArrowUp');
  await expect(card.getByTestId('fleet-gpus')).toHaveValue('21');
});

test('bad input: a message by the field, last result kept and marked stale', async ({ page }) => {
  const card = await openCard(page);
  for (const [testid, bad, message, good] of [
    ['fleet-requests', '-1', 'more than 0', '1000000'],
    ['fleet-tokens', 'lots', 'not a number', '400'],
    ['fleet-gpus', '2.5', 'whole number', '8'],
    ['fleet-gpus', '0', 'at least 1', '8'],
    ['fleet-small-gb', '', 'Enter a number', '5'],
    ['fleet-large-gb', 'NaN', 'finite', '40'],
  ]) {
    await card.getByTestId(testid).fill(bad);
    await expect(card.getByRole('alert').filter({ hasText: message })).toBeVisible();
    await expect(card.getByTestId('fleet-small-gpus')).toHaveText('1 GPU');
    await expect(card.locator('.output.stale')).toHaveCount(4);
    await expect(card).not.toContainText('NaN');
    await card.getByTestId(testid).fill(good);
    await expect(card.locator('.output.stale')).toHaveCount(0);
  }
});

test('a shared link reproduces the fleet, next to the decode ceiling state', async ({ page }) => {
  const card = await openCard(page, '?dc.bw=300');
  await expect(page.locator('[data-widget="decode-ceiling"]').getByTestId('decode-tps-a')).toHaveText('60 tok/s');
  await card.getByTestId('fleet-gpus').fill('64');
  await card.getByTestId('fleet-small-gb').fill('16');
  await expect(page).toHaveURL(/fs\.gpus=64/);
  await expect(page).toHaveURL(/dc\.bw=300/);
  const other = await page.context().newPage();
  const again = await openCard(other, new URL(page.url()).search);
  await expect(again.getByTestId('fleet-small-gpus')).toHaveText('26 GPUs');
  await expect(other.locator('[data-widget="decode-ceiling"]').getByTestId('decode-tps-a')).toHaveText('60 tok/s');
});
