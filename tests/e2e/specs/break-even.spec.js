// Break-even: API per token against dedicated GPUs by the hour, with a line chart.
const { test, expect } = require('@playwright/test');
const { appReady } = require('./course');

async function openCard(page, query = '') {
  await page.goto('/shared-or-dedicated/' + query);
  await appReady(page);
  const card = page.locator('[data-widget="break-even"]').first();
  await card.scrollIntoViewIfNeeded();
  return card;
}

test('example inputs, clearly labelled, give both bills and the break-even volume', async ({ page }) => {
  const card = await openCard(page);
  await expect(card.getByTestId('break-even-example-note')).toContainText('examples');
  await expect(card.getByText('API price per million tokens (example)')).toBeVisible();
  await expect(card.getByTestId('break-even-api-cost')).toHaveText('$600');
  await expect(card.getByTestId('break-even-dedicated-cost')).toHaveText('$1,825 (1 GPU)');
  await expect(card.getByTestId('break-even-volume-out')).toHaveText('3,042 M tokens');
  await expect(card.getByTestId('break-even-verdict')).toHaveText('$1,225 less on the API');
});

test('the chart draws both lines, marks the volume and moves with it', async ({ page }) => {
  const card = await openCard(page);
  const chart = card.getByTestId('break-even-chart');
  await expect(chart.locator('svg [stroke="var(--accent)"]')).not.toHaveCount(0);
  await expect(chart.locator('svg [stroke="var(--chart-2)"]')).not.toHaveCount(0);
  await expect(chart.locator('svg circle')).toHaveCount(4);
  const before = await chart.innerHTML();
  await card.getByRole('button', { name: '10B' }).click();
  await expect(card.getByTestId('break-even-dedicated-cost')).toHaveText('$5,475 (3 GPUs)');
  await expect(card.getByTestId('break-even-verdict')).toHaveText('$525 less on dedicated');
  await expect.poll(() => chart.innerHTML()).not.toBe(before);
  await expect(chart).toHaveAttribute('aria-label', /At 10,000 M tokens the API costs \$6,000 and dedicated \$5,475/);
  await expect(chart).toHaveAttribute('aria-label', /cross at 3,041.667 M tokens/);
  await card.getByTestId('break-even-api-price').fill('0.1');
  await expect(card.getByTestId('break-even-volume-out')).toHaveText(/^None: the API/);
  await expect(chart).toHaveAttribute('aria-label', /never cross/);
  await card.getByTestId('break-even-utilisation').fill('50');
  await card.getByTestId('break-even-api-price').fill('2');
  await expect(card.getByTestId('break-even-volume-out')).toHaveText('913 M tokens');
  await expect(card.locator('.ticks-y .tick').first()).toHaveText(/^\$/);
});

test('bad input: a message by the field, last result kept and marked stale', async ({ page }) => {
  const card = await openCard(page);
  for (const [testid, bad, message, good] of [
    ['break-even-api-price', '0', 'more than 0', '0.6'],
    ['break-even-gpu-hourly', 'cheap', 'not a number', '2.5'],
    ['break-even-throughput', '', 'Enter a number', '1500'],
    ['break-even-utilisation', '120', 'at most 100', '100'],
    ['break-even-volume', '1e400', 'finite', '1000000000'],
  ]) {
    await card.getByTestId(testid).fill(bad);
    await expect(card.getByRole('alert').filter({ hasText: message })).toBeVisible();
    await expect(card.getByTestId('break-even-api-cost')).toHaveText('$600');
    await expect(card.locator('.output.stale')).toHaveCount(4);
    await expect(card).not.toContainText('NaN');
    await card.getByTestId(testid).fill(good);
    await expect(card.locator('.output.stale')).toHaveCount(0);
  }
});

test('a shared link reproduces the bills', async ({ page }) => {
  const card = await openCard(page);
  await card.getByTestId('break-even-gpu-hourly').fill('4');
  await card.getByTestId('break-even-volume').fill('5000000000');
  await expect(page).toHaveURL(/be\.gpu=4/);
  await expect(page).toHaveURL(/be\.vol=5000000000/);
  const other = await page.context().newPage();
  const again = await openCard(other, new URL(page.url()).search);
  await expect(again.getByTestId('break-even-gpu-hourly')).toHaveValue('4');
  await expect(again.getByTestId('break-even-dedicated-cost')).toHaveText('$5,840 (2 GPUs)');
  await expect(again.getByTestId('break-even-api-cost')).toHaveText('$3,000');
});
