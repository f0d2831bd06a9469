// Where one lesson quotes a figure another lesson's widget computes, the two agree, and the
// "Try this" steps the batching lessons give do what they say.
const { test, expect } = require('@playwright/test');
const { appReady, watchErrors } = require('./course');

async function open(page, path, widget) {
  await page.goto(path);
  await appReady(page);
  const card = page.locator(`[data-widget="${widget}"]`).first();
  await card.scrollIntoViewIfNeeded();
  return card;
}

test("1.1's example throughput is the decode ceiling's per-GPU figure for the setup it names", async ({ page }) => {
  const errors = watchErrors(page);
  const breakEven = await open(page, '/shared-or-dedicated/', 'break-even');
  await expect(breakEven.getByTestId('break-even-throughput')).toHaveValue('1477');
  const lesson = page.getByTestId('lesson');
  await expect(lesson).toContainText('decoding 8 conversations of 2,048 tokens together');
  await expect(lesson).toContainText('1,477 tok/s for the GPU');
  // The same setup in the decode-ceiling calculator: Llama 3 8B in FP16 on one H100.
  const ceiling = await open(page, '/why-size-wins/', 'decode-ceiling');
  await ceiling.getByTestId('decode-gpu').selectOption('h100-80');
  await ceiling.getByRole('button', { name: /8B · FP16 16 GB/ }).click();
  await ceiling.getByTestId('decode-batch').fill('8');
  await ceiling.getByTestId('decode-context').fill('2048');
  await expect(ceiling.getByTestId('decode-total-out')).toHaveText(/^1,477 \//);
  await expect(ceiling.getByTestId('decode-bound-out')).toHaveText(/^bandwidth/);
  expect(errors).toEqual([]);
});

test('runtime memory: 32 conversations of 8K tokens need more KV cache than the 70B has weights at INT4', async ({ page }) => {
  const card = await open(page, '/model-selection/', 'weight-memory');
  await expect(page.getByTestId('lesson')).toContainText('85.9 GB of KV cache');
  await card.getByTestId('weight-runtime').check();
  await expect(card.getByTestId('weight-context')).toHaveValue('8192');
  await card.getByTestId('weight-batch').fill('32');
  await expect(card.getByTestId('weight-kv-gb')).toHaveText('85.899 GB');
  await card.getByTestId('weight-precision').selectOption('int4');
  await expect(card.getByTestId('weight-gb')).toHaveText(/^35 GB/);
});

test("1.4's busy queue is one server at 75 % load: the explorer's split gives the lesson's 1280 ms", async ({ page }) => {
  const card = await open(page, '/latency-and-throughput/', 'latency');
  const lesson = page.getByTestId('lesson');
  await expect(lesson).toContainText('the whole from 1280 ms to 320 ms');
  await card.getByRole('button', { name: 'Busy queue' }).click();
  await expect(card.getByTestId('latency-e2e-total')).toHaveText('1280 ms');
});
