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

// ---- GPU presets, runtime allowance, chart, shareable link (issue 4) ----

async function openModelSelection(page, query = '') {
  await page.goto('/model-selection/' + query);
  await appReady(page);
  const card = page.locator('[data-widget="weight-memory"]').first();
  await card.scrollIntoViewIfNeeded();
  return card;
}

/** The x position of the chart's first marked point (the current model). */
async function markX(card) {
  return card.getByTestId('weight-chart').locator('svg circle').first().getAttribute('cx');
}

test('GPU presets fill the memory, and typing over them shows Custom', async ({ page }) => {
  const card = await openModelSelection(page);
  await expect(card.getByTestId('weight-gpu')).toHaveValue('h100-80');
  await card.getByTestId('weight-gpu').selectOption('h200-141');
  await expect(card.getByTestId('weight-gpu-memory')).toHaveValue('141');
  await expect(card.getByTestId('weight-gpu-fraction')).toHaveText(/^0\.99 of one 141 GB GPU/);
  await expect(card.getByTestId('weight-gpus')).toHaveText('1 GPU');
  await card.getByTestId('weight-gpu').selectOption('l4-24');
  await expect(card.getByTestId('weight-gpus')).toHaveText('6 GPUs');
  await card.getByTestId('weight-gpu-memory').fill('40');
  await expect(card.getByTestId('weight-gpu')).toHaveValue('custom');
  await expect(card.getByTestId('weight-gpus')).toHaveText('4 GPUs');
  await card.getByRole('button', { name: 'DeepSeek-R1 671B' }).click();
  await expect(card.getByTestId('weight-gb')).toHaveText('1,342 GB');
});

test('the runtime allowance adds the KV cache and overhead to what must fit', async ({ page }) => {
  const card = await openModelSelection(page);
  await expect(card.getByTestId('weight-kv-gb')).toHaveCount(0);
  await card.getByTestId('weight-runtime').check();
  // Llama 3 70B shape, 8,192 tokens, batch 1, FP16 KV, 10 % overhead.
  await expect(card.getByTestId('weight-kv-gb')).toHaveText('2.684 GB');
  await expect(card.getByTestId('weight-total-gb')).toHaveText('156.953 GB');
  await expect(card.getByTestId('weight-gb')).toHaveText('140 GB');
  await expect(card.getByTestId('weight-gpu-fraction')).toHaveText(/^1\.96 /);
  await card.getByRole('button', { name: '128K' }).click();
  await card.getByTestId('weight-batch').fill('8');
  await expect(card.getByTestId('weight-kv-gb')).toHaveText('343.597 GB');
  await expect(card.getByTestId('weight-gpus')).toHaveText('7 GPUs');
  await card.getByTestId('weight-kv-precision').selectOption('fp8');
  await expect(card.getByTestId('weight-kv-gb')).toHaveText('171.799 GB');
  await card.getByTestId('weight-kv-heads').fill('2.5');
  await expect(card.getByRole('alert').filter({ hasText: 'whole number' })).toBeVisible();
  await expect(card.getByTestId('weight-kv-gb')).toHaveText('171.799 GB');
  await expect(card.locator('.output.stale')).toHaveCount(5);
  await card.getByTestId('weight-kv-heads').fill('8');
  await card.getByTestId('weight-runtime').uncheck();
  await expect(card.getByTestId('weight-gpus')).toHaveText('2 GPUs');
});

test('the chart follows the model, the precision and the GPU', async ({ page }) => {
  const card = await openModelSelection(page);
  const chart = card.getByTestId('weight-chart');
  await expect(chart.locator('svg polyline')).not.toHaveCount(0);
  await expect(chart.locator('svg [stroke="var(--danger)"]')).not.toHaveCount(0);
  await expect(chart).toHaveAttribute('aria-label', /This model, 70B, needs 140 GB/);
  const x70 = Number(await markX(card));
  await card.getByTestId('weight-params').fill('8');
  await expect.poll(async () => Number(await markX(card))).toBeLessThan(x70);
  await expect(chart).toHaveAttribute('aria-label', /up to 40B parameters/);
  await card.getByTestId('weight-precision').selectOption('int4');
  await expect(chart).toHaveAttribute('aria-label', /At INT4 .*up to 160B parameters/);
  await card.getByTestId('weight-gpu').selectOption('b200-192');
  await expect(chart).toHaveAttribute('aria-label', /One 192 GB GPU holds the weights of a model up to 384B/);
  await expect(card.locator('.ticks-x .tick').first()).toHaveText('1B');
});

test('a shared link reproduces the result, and the heading fragment survives', async ({ page }) => {
  const card = await openModelSelection(page);
  await card.getByTestId('weight-params').fill('405');
  await card.getByTestId('weight-precision').selectOption('fp8');
  await card.getByTestId('weight-gpu').selectOption('h200-141');
  await expect(page).toHaveURL(/wm\.params=405/);
  await expect(page).toHaveURL(/wm\.prec=fp8/);
  await expect(page).toHaveURL(/wm\.mem=141/);
  const link = page.url();
  const other = await page.context().newPage();
  await other.goto(link);
  await appReady(other);
  const again = other.locator('[data-widget="weight-memory"]').first();
  await expect(again.getByTestId('weight-params')).toHaveValue('405');
  await expect(again.getByTestId('weight-precision')).toHaveValue('fp8');
  await expect(again.getByTestId('weight-gb')).toHaveText('405 GB');
  await expect(again.getByTestId('weight-gpus')).toHaveText('3 GPUs');
  await expect(again.getByTestId('weight-gpu')).toHaveValue('h200-141');
  // Custom bits and the runtime allowance travel too, next to a heading anchor.
  await other.goto('/model-selection/?wm.params=8&wm.prec=custom&wm.bits=4.85&wm.rt=1&wm.ctx=4096#example-1-weight-memory');
  await appReady(other);
  const third = other.locator('[data-widget="weight-memory"]').first();
  await expect(third.getByTestId('weight-bits')).toHaveValue('4.85');
  await expect(third.getByTestId('weight-gb')).toHaveText('4.85 GB');
  await expect(third.getByTestId('weight-kv-gb')).toHaveText('1.342 GB');
  await third.getByTestId('weight-batch').fill('2');
  await expect(other).toHaveURL(/wm\.batch=2.*#example-1-weight-memory$/);
  // Back to the defaults: the address is clean again.
  await third.getByTestId('weight-batch').fill('1');
  await third.getByTestId('weight-runtime').uncheck();
  await third.getByTestId('weight-precision').selectOption('fp16');
  await third.getByTestId('weight-params').fill('70');
  await expect(other).toHaveURL(/\/model-selection\/(\?wm\.ctx=4096)?#example-1-weight-memory$/);
  // A link with junk in it shows the message, never NaN.
  await other.goto('/model-selection/?wm.params=abc');
  await appReady(other);
  const junk = other.locator('[data-widget="weight-memory"]').first();
  await expect(junk.getByRole('alert').filter({ hasText: 'not a number' })).toBeVisible();
  await expect(junk).not.toContainText('NaN');
  // An unknown precision (or KV-cache precision) is said beside its menu, not guessed.
  await other.goto('/model-selection/?wm.prec=fp12&wm.rt=1&wm.kvprec=fp7');
  await appReady(other);
  const odd = other.locator('[data-widget="weight-memory"]').first();
  const said = (text) => odd.locator('.field.invalid').filter({ hasText: text });
  await expect(said('\u201cfp12\u201d is not a precision this calculator knows')).toBeVisible();
  await expect(said('\u201cfp7\u201d is not a precision this calculator knows')).toBeVisible();
  await expect(odd.getByTestId('weight-precision')).toHaveAttribute('aria-invalid', 'true');
  // The menu is outlined in the page's danger colour, as a wrong number field is.
  const border = (testid) => odd.getByTestId(testid).evaluate((el) => getComputedStyle(el).borderTopColor);
  const danger = await odd.evaluate((el) => {
    const probe = Object.assign(document.createElement('i'), { style: 'color: var(--danger)' });
    el.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  });
  expect(await border('weight-precision')).toBe(danger);
  expect(await border('weight-kv-precision')).toBe(danger);
  await expect(odd.getByTestId('weight-gb')).toHaveText('\u2014');
  // With no result yet, no empty chart frame stands in the card.
  await expect(odd.getByTestId('weight-chart')).toBeHidden();
  await odd.getByTestId('weight-precision').selectOption('int4');
  await odd.getByTestId('weight-kv-precision').selectOption('fp8');
  await expect(odd.locator('.field.invalid')).toHaveCount(0);
  expect(await border('weight-precision')).not.toBe(danger);
  await expect(odd.getByTestId('weight-chart')).toBeVisible();
  await expect(odd.getByTestId('weight-gb')).toHaveText('35 GB');
});
