// The first widget: weight memory and GPU count, typed into as a reader would.
const { test, expect } = require('@playwright/test');
const { appReady } = require('./course');

async function openCalculator(page) {
  await page.goto('/');
  await appReady(page);
  const href = await page.locator('nav#toc a').nth(3).getAttribute('href');
  await page.goto('/' + href);
  await appReady(page);
  const card = page.locator('[data-widget="weight-memory"]').first();
  await card.scrollIntoViewIfNeeded();
  return card;
}

test('reproduces the Example 1 table with the defaults', async ({ page }) => {
  const card = await openCalculator(page);
  const rows = [['3', '6 GB', '0.08', '1 GPU'], ['8', '16 GB', '0.20', '1 GPU'], ['70', '140 GB', '1.75', '2 GPUs'], ['671', '1,342 GB', '16.78', '17 GPUs']];
  for (const [params, gb, fraction, gpus] of rows) {
    await card.getByTestId('weight-params').fill(params);
    await expect(card.getByTestId('weight-gb')).toHaveText(gb);
    await expect(card.getByTestId('weight-gpu-fraction')).toHaveText(new RegExp(`^${fraction.replace('.', '\\.')}\\b`));
    await expect(card.getByTestId('weight-gpus')).toHaveText(gpus);
  }
});

test('precision, custom bits, GPU memory and presets change the result', async ({ page }) => {
  const card = await openCalculator(page);
  await card.getByRole('button', { name: '8B' }).click();
  await expect(card.getByTestId('weight-params')).toHaveValue('8');
  await card.getByTestId('weight-precision').selectOption('fp32');
  await expect(card.getByTestId('weight-gb')).toHaveText('32 GB');
  await card.getByTestId('weight-precision').selectOption('int4');
  await expect(card.getByTestId('weight-gb')).toHaveText('4 GB');
  await card.getByTestId('weight-precision').selectOption('custom');
  await card.getByTestId('weight-bits').fill('4.85');
  await expect(card.getByTestId('weight-gb')).toHaveText('4.85 GB');
  await card.getByTestId('weight-gpu-memory').fill('24');
  await expect(card.getByTestId('weight-gpu-fraction')).toHaveText(/^0\.20 /);
  // Arrow keys step the number.
  await card.getByTestId('weight-params').press('ArrowUp');
  await expect(card.getByTestId('weight-params')).toHaveValue('9');
  await expect(card.getByTestId('worked-line').or(card.getByTestId('weight-worked'))).toContainText('9 × 10⁹');
});

test('bad input shows a message next to the field and keeps the last result, marked stale', async ({ page }) => {
  const card = await openCalculator(page);
  await card.getByTestId('weight-params').fill('70');
  await expect(card.getByTestId('weight-gb')).toHaveText('140 GB');
  for (const [bad, message] of [['', 'Enter a number.'], ['abc', 'is not a number'], ['-5', 'more than 0'], ['1e309', 'finite'], ['NaN', 'finite']]) {
    await card.getByTestId('weight-params').fill(bad);
    await expect(card.getByRole('alert').filter({ hasText: message })).toBeVisible();
    await expect(card.getByTestId('weight-gb')).toHaveText('140 GB');
    await expect(card.locator('.output.stale')).toHaveCount(3);
  }
  await card.getByTestId('weight-gpu-memory').fill('0');
  await expect(card.getByRole('alert').filter({ hasText: 'more than 0' }).first()).toBeVisible();
  await card.getByTestId('weight-params').fill('8');
  await card.getByTestId('weight-gpu-memory').fill('80');
  await expect(card.getByTestId('weight-gb')).toHaveText('16 GB');
  await expect(card.locator('.output.stale')).toHaveCount(0);
  await expect(card.getByRole('alert').filter({ hasText: /./ })).toHaveCount(0);
});
