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
  // The example throughput is the decode ceiling the lesson names (8B FP16, H100, batch 8).
  await expect(card.getByTestId('break-even-throughput')).toHaveValue('1477');
  await expect(card.getByTestId('break-even-example-note')).toContainText('examples');
  await expect(card.getByText('API price per million tokens (example)')).toBeVisible();
  await expect(card.getByTestId('break-even-api-cost')).toHaveText('$600');
  await expect(card.getByTestId('break-even-dedicated-cost')).toHaveText('$1,825 (1 GPU)');
  await expect(card.getByTestId('break-even-volume-out')).toHaveText(
    '12,167 M tokens/month; below that, dedicated wins only from 3,042 to 3,882 M, 6,083 to 7,763 M and 9,125 to 11,645 M',
  );
  await expect(card.getByTestId('break-even-verdict')).toHaveText('$1,225 less on the API');
});

test('more than one crossing: past each new GPU the API is cheaper again, and the chart shades where dedicated wins', async ({ page }) => {
  const card = await openCard(page);
  const out = card.getByTestId('break-even-volume-out');
  const chart = card.getByTestId('break-even-chart');
  await expect(chart.getByTestId('break-even-win-band')).toHaveCount(3);
  await expect(chart.getByTestId('break-even-always-band')).toHaveCount(1);
  await expect(chart.getByTestId('break-even-win-band').first()).toHaveAttribute('fill', 'var(--chart-2)');
  await expect(chart).toHaveAttribute('aria-label', /3 ranges below that and every volume from 12,167 M tokens on/);
  // 4.5 billion needs a second, nearly idle GPU: the API wins again; 7 billion fills it.
  const volume = card.getByTestId('break-even-volume');
  await volume.fill('4500000000');
  await expect(card.getByTestId('break-even-verdict')).toHaveText('$950 less on the API');
  await volume.fill('7000000000');
  await expect(card.getByTestId('break-even-verdict')).toHaveText('$550 less on dedicated');
  // A dearer API: two GPUs' gaps, then dedicated for good.
  await card.getByTestId('break-even-api-price').fill('0.7');
  await expect(out).toHaveText('7,821 M tokens/month; below that, dedicated wins only from 2,607 to 3,882 M and 5,214 to 7,763 M');
  await expect(chart.getByTestId('break-even-win-band')).toHaveCount(2);
  // At 90% utilisation each GPU holds less: six gaps, counted instead of listed.
  await card.getByTestId('break-even-api-price').fill('0.6');
  await card.getByTestId('break-even-utilisation').fill('90');
  await expect(out).toHaveText(/^21,292 M tokens\/month; below that, dedicated wins only in 6 ranges, from 3,042 to 3,493 M, 6,083 to 6,987 M, … and 18,250 to 20,960 M$/);
  await expect(chart.getByTestId('break-even-win-band')).toHaveCount(6);
  // Never: the message says so and nothing is shaded.
  await card.getByTestId('break-even-api-price').fill('0.4');
  await expect(out).toHaveText(/^None: the API is always cheaper/);
  await expect(chart.getByTestId('break-even-win-band')).toHaveCount(0);
  await expect(chart.getByTestId('break-even-always-band')).toHaveCount(0);
  await expect(card).not.toContainText('NaN');
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
  await expect(chart).toHaveAttribute('aria-label', /first cross at 3,041.667 M tokens/);
  await card.getByTestId('break-even-api-price').fill('0.1');
  await expect(card.getByTestId('break-even-volume-out')).toHaveText(/^None: the API/);
  await expect(chart).toHaveAttribute('aria-label', /never cross/);
  await card.getByTestId('break-even-utilisation').fill('50');
  await card.getByTestId('break-even-api-price').fill('2');
  await expect(card.getByTestId('break-even-volume-out')).toHaveText('913 M tokens/month; below that, the API is cheaper');
  await expect(chart.getByTestId('break-even-win-band')).toHaveCount(0);
  await expect(chart.getByTestId('break-even-always-band')).toHaveCount(1);
  await expect(card.locator('.ticks-y .tick').first()).toHaveText(/^\$/);
});

test('bad input: a message by the field, last result kept and marked stale', async ({ page }) => {
  const card = await openCard(page);
  for (const [testid, bad, message, good] of [
    ['break-even-api-price', '0', 'more than 0', '0.6'],
    ['break-even-gpu-hourly', 'cheap', 'not a number', '2.5'],
    ['break-even-throughput', '', 'Enter a number', '1477'],
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

test('a link whose values all fail: a message by each field, and one dash for each result', async ({ page }) => {
  const card = await openCard(page, '?be.api=x&be.util=500&be.vol=-1');
  await expect(card.getByText('\u201cx\u201d is not a number.')).toBeVisible();
  await expect(card.getByText('Must be at most 100.')).toBeVisible();
  for (const id of ['break-even-api-cost', 'break-even-dedicated-cost', 'break-even-verdict', 'break-even-volume-out']) {
    await expect(card.getByTestId(id)).toHaveText('\u2014');
  }
  // No empty chart frame before the first result; the chart comes with it.
  await expect(card.getByTestId('break-even-chart')).toBeHidden();
  await card.getByTestId('break-even-api-price').fill('0.5');
  await card.getByTestId('break-even-utilisation').fill('50');
  await card.getByTestId('break-even-volume').fill('1000000000');
  // A result: its number (or "None") first, and the words after it.
  await expect(card.getByTestId('break-even-volume-out')).toHaveText(/^(None: |[0-9,]+ M tokens\/month; )/);
  await expect(card.getByTestId('break-even-chart')).toBeVisible();
});
