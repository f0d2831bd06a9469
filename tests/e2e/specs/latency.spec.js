// The latency explorer: percentiles of a skewed sample, the tail control, and end-to-end time.
const { test, expect } = require('@playwright/test');
const { appReady, watchErrors } = require('./course');

async function openExplorer(page) {
  await page.goto('/latency-and-throughput/');
  await appReady(page);
  const card = page.locator('[data-widget="latency"]');
  await card.scrollIntoViewIfNeeded();
  return card;
}

/** The number an output starts with, in ms. */
async function ms(card, id) {
  const text = await card.getByTestId(id).textContent();
  expect(text).toMatch(/^\d+(\.\d+)? ms$/);
  return parseFloat(text);
}

async function stats(card) {
  return {
    mean: await ms(card, 'latency-mean'),
    p50: await ms(card, 'latency-p50'),
    p90: await ms(card, 'latency-p90'),
    p99: await ms(card, 'latency-p99'),
  };
}

test('the sample is right-skewed: the mean sits above the median and P99 far out', async ({ page }) => {
  const errors = watchErrors(page);
  const card = await openExplorer(page);
  const s = await stats(card);
  expect(s.p50).toBeGreaterThan(600);
  expect(s.p50).toBeLessThan(1000);
  expect(s.mean).toBeGreaterThan(s.p50);
  expect(s.p90).toBeGreaterThan(s.p50);
  expect(s.p99).toBeGreaterThan(3 * s.p50);
  await expect(card.getByTestId('latency-story')).toContainText(`The mean, ${s.mean} ms`);
  await expect(card.getByTestId('latency-story')).toContainText(`1 in 100 longer than ${s.p99} ms`);
  const chart = card.getByTestId('latency-histogram');
  await expect(chart.locator('svg')).toHaveCount(1);
  await expect(chart).toHaveAttribute('aria-label', new RegExp(`P99 ${s.p99} ms`));
  expect(errors).toEqual([]);
});

test('a longer tail moves P99 much more than P50', async ({ page }) => {
  const card = await openExplorer(page);
  await card.getByTestId('latency-slow-one-in').fill('0');
  await card.getByTestId('latency-sigma').fill('0.3');
  const before = await stats(card);
  await card.getByTestId('latency-sigma').fill('0.9');
  await expect(card.getByTestId('latency-p99')).not.toHaveText(`${before.p99} ms`);
  const after = await stats(card);
  expect(after.p99 - before.p99).toBeGreaterThan(5 * Math.abs(after.p50 - before.p50));
  // The arrow keys move the control too.
  await card.getByTestId('latency-sigma').press('ArrowUp');
  await expect(card.getByTestId('latency-sigma')).toHaveValue('1');
  expect(await ms(card, 'latency-p99')).toBeGreaterThan(after.p99);
  // A preset does the same.
  await card.getByRole('button', { name: 'Narrow' }).click();
  await expect(card.getByTestId('latency-sigma')).toHaveValue('0.2');
  expect(await ms(card, 'latency-p99')).toBeLessThan(before.p99);
});

test('slow requests lift P99, and the text says what fixing them would change', async ({ page }) => {
  const card = await openExplorer(page);
  await card.getByRole('button', { name: 'None', exact: true }).click();
  const none = await stats(card);
  await card.getByRole('button', { name: '1 in 10' }).click();
  await expect(card.getByTestId('latency-p99')).not.toHaveText(`${none.p99} ms`);
  const slow = await stats(card);
  expect(slow.p99).toBeGreaterThan(2 * none.p99);
  await expect(card.getByTestId('latency-trim')).toContainText('If the 1-in-10 slow requests were fixed');
  await card.getByTestId('latency-slow-factor').fill('1');
  await expect(card.getByTestId('latency-p99')).toHaveText(`${none.p99} ms`);
});

test('bad input is named next to its field and the last figures stay, marked stale', async ({ page }) => {
  const card = await openExplorer(page);
  const good = await card.getByTestId('latency-p99').textContent();
  for (const [id, bad, message] of [
    ['latency-sigma', '5', 'at most 3'],
    ['latency-median', '0', 'more than 0'],
    ['latency-slow-one-in', '2.5', 'whole number'],
    ['latency-slow-factor', 'x', 'is not a number'],
  ]) {
    const before = await card.getByTestId(id).inputValue();
    await card.getByTestId(id).fill(bad);
    await expect(card.getByRole('alert').filter({ hasText: message })).toBeVisible();
    await expect(card.getByTestId('latency-p99')).toHaveText(good);
    await expect(card.locator('.output.stale')).toHaveCount(4);
    await expect(card).not.toContainText('NaN');
    await card.getByTestId(id).fill(before);
  }
  await expect(card.locator('.output.stale')).toHaveCount(0);
});

test('end-to-end split: fast inference with slow end-to-end points at the infrastructure', async ({ page }) => {
  const card = await openExplorer(page);
  await expect(card.getByTestId('latency-e2e-total')).toHaveText('1000 ms');
  await expect(card.getByTestId('latency-inference-share')).toHaveText('25%');
  await expect(card.getByTestId('latency-diagnosis')).toContainText('Fix the infrastructure');
  await expect(card.getByTestId('latency-diagnosis')).toContainText('the network');
  await card.getByRole('button', { name: 'Busy queue' }).click();
  await expect(card.getByTestId('latency-diagnosis')).toContainText('queueing');
  await card.getByRole('button', { name: 'GPU-bound' }).click();
  await expect(card.getByTestId('latency-inference-share')).toHaveText('95%');
  await expect(card.getByTestId('latency-diagnosis')).toContainText('model-side work pays');
  await expect(card.getByTestId('latency-split')).toHaveAttribute('aria-label', /inference 950 ms \(95%\)/);
  await card.getByTestId('latency-network').fill('-3');
  await expect(card.getByRole('alert').filter({ hasText: 'at least 0' })).toBeVisible();
  await expect(card.getByTestId('latency-e2e-total')).toHaveText('1000 ms');
  await card.getByTestId('latency-network').fill('1500');
  await expect(card.getByTestId('latency-diagnosis')).toContainText('Fix the infrastructure');
});
