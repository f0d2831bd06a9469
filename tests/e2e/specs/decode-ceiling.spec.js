// Decode ceiling: bandwidth ÷ weights per token, two models side by side; then both served at a
// batch, with the KV cache that caps it and the limit that binds.
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
    await expect(card.locator('.output.stale')).toHaveCount(8);
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

test('DeepSeek-R1: memory from all 671 GB, the ceiling from the 37 GB it reads per token', async ({ page }) => {
  const errors = watchErrors(page);
  const card = await openCard(page);
  await card.getByTestId('decode-gpu').selectOption('h100-80');
  await expect(card.getByTestId('decode-gpu-memory')).toHaveValue('80');
  await card.getByRole('button', { name: /DeepSeek-R1/ }).click();
  await expect(card.getByRole('button', { name: /DeepSeek-R1/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(card.getByTestId('decode-model-gb-b')).toHaveValue('671');
  await expect(card.getByTestId('decode-read-gb-b')).toHaveValue('37');
  // 3,350 GB/s ÷ 37 GB, not ÷ 671 GB (which would be 4.99).
  await expect(card.getByTestId('decode-tps-b')).toHaveText('90.5 tok/s');
  await expect(card.getByTestId('decode-worked')).toContainText('B: 3,350 GB/s ÷ 37 GB read per token (of 671 GB in memory) = 90.5 tok/s at most');
  // It is stored like its full size: 671 GB need 9 GPUs of 80 GB.
  const note = card.getByTestId('decode-fit-note');
  await expect(note).toContainText("Model B's 671 GB of weights do not fit in 80 GB of memory");
  await expect(note).toContainText('They need 9 GPUs like this one');
  // A dense preset empties the read field: the model reads all it holds again.
  await card.getByRole('button', { name: /70B · ~4-bit ≈ 40 GB/ }).click();
  await expect(card.getByTestId('decode-read-gb-b')).toHaveValue('');
  await expect(card.getByTestId('decode-tps-b')).toHaveText('83.8 tok/s');
  await expect(card.getByRole('button', { name: /DeepSeek-R1/ })).toHaveAttribute('aria-pressed', 'false');
  expect(errors).toEqual([]);
});

test('a typed read-per-token figure sets the ceiling; more than the weights in memory is refused', async ({ page }) => {
  const card = await openCard(page);
  await card.getByTestId('decode-model-gb-b').fill('671');
  await expect(card.getByTestId('decode-tps-b')).toHaveText('0.149 tok/s');
  await card.getByTestId('decode-read-gb-b').fill('37');
  await expect(card.getByTestId('decode-tps-b')).toHaveText('2.7 tok/s');
  await expect(card.getByTestId('decode-ratio')).toHaveText('7.4× faster');
  await expect(page).toHaveURL(/dc\.br=37/);
  await card.getByTestId('decode-read-gb-b').fill('700');
  await expect(card.getByRole('alert').filter({ hasText: 'at most the weights in memory, 671 GB' })).toBeVisible();
  await expect(card.getByTestId('decode-tps-b')).toHaveText('2.7 tok/s');
  await expect(card.locator('.output.stale')).toHaveCount(8);
  await card.getByTestId('decode-read-gb-b').fill('');
  await expect(card.locator('.output.stale')).toHaveCount(0);
  await expect(card.getByTestId('decode-tps-b')).toHaveText('0.149 tok/s');
  // The mixture-of-experts figure travels in a shared link.
  await card.getByTestId('decode-read-gb-b').fill('37');
  await expect(page).toHaveURL(/dc\.br=37/);
  const other = await page.context().newPage();
  const again = await openCard(other, new URL(page.url()).search);
  await expect(again.getByTestId('decode-read-gb-b')).toHaveValue('37');
  await expect(again.getByTestId('decode-tps-b')).toHaveText('2.7 tok/s');
});

test('weights that do not fit the GPU: 140 GB on one 80 GB H100 is named, not shown silently', async ({ page }) => {
  const card = await openCard(page);
  const note = card.getByTestId('decode-fit-note');
  // A typed bandwidth has no memory to check against, and the note says so.
  await expect(note).toContainText('Memory not given');
  await expect(note).not.toHaveClass(/overflow/);
  await card.getByTestId('decode-gpu').selectOption('h100-80');
  await expect(note).toHaveText("Both models' weights fit in 80 GB of memory.");
  await card.getByRole('button', { name: /70B · FP16 140 GB/ }).click();
  // The ceiling stays, and the note says what it means.
  await expect(card.getByTestId('decode-tps-b')).toHaveText('23.9 tok/s');
  await expect(note).toContainText("Model B's 140 GB of weights do not fit in 80 GB of memory, so its 23.9 tok/s is only the ceiling if they did.");
  await expect(note).toContainText('They need 2 GPUs like this one; reading their shares at once, those could reach up to 47.9 tok/s.');
  await expect(note).toHaveClass(/overflow/);
  // A GPU with room for it: the note calms down.
  await card.getByTestId('decode-gpu').selectOption('h200-141');
  await expect(card.getByTestId('decode-gpu-memory')).toHaveValue('141');
  await expect(note).toHaveText("Both models' weights fit in 141 GB of memory.");
  // Typed memory works too, and a bad one is refused by its field.
  await card.getByTestId('decode-gpu-memory').fill('24');
  await expect(card.getByTestId('decode-gpu')).toHaveValue('custom');
  await expect(note).toContainText('They need 6 GPUs');
  await card.getByTestId('decode-gpu-memory').fill('-1');
  await expect(card.getByRole('alert').filter({ hasText: 'more than 0' })).toBeVisible();
});

/** Picks the H100 and the 8B FP16 preset for model A (the 70B at about 4 bits stays in B). */
async function h100With8bFp16(card) {
  await card.getByTestId('decode-gpu').selectOption('h100-80');
  await expect(card.getByTestId('decode-tflops')).toHaveValue('989');
  await card.getByRole('button', { name: /8B · FP16 16 GB/ }).click();
  await expect(card.getByTestId('decode-arch-a')).toHaveValue('llama3-8b');
}

test('batching on an H100: each request slows a little while the GPU makes many times more', async ({ page }) => {
  const errors = watchErrors(page);
  const card = await openCard(page);
  // Batch 1 at 1,024 tokens: the one-sequence ceilings, shaved by reading the KV cache.
  await expect(card.getByTestId('decode-batch')).toHaveValue('1');
  await expect(card.getByTestId('decode-context')).toHaveValue('1024');
  await expect(card.getByTestId('decode-per-request-out')).toHaveText(/^19\.5 \/ 2\.48 tok\/s$/);
  await h100With8bFp16(card);
  await expect(card.getByTestId('decode-tps-a')).toHaveText('209 tok/s');
  await expect(card.getByTestId('decode-per-request-out')).toHaveText(/^208 \//);
  await expect(card.getByTestId('decode-total-out')).toHaveText(/^208 \//);
  await expect(card.getByTestId('decode-max-batch-out')).toHaveText('476 / 119');
  await expect(card.getByTestId('decode-bound-out')).toHaveText('bandwidth / bandwidth');
  // Batch 32: 5,282 tok/s from the GPU, 165 for each request.
  await card.getByTestId('decode-batch').fill('32');
  await expect(card.getByTestId('decode-per-request-out')).toHaveText('165 / 66 tok/s');
  await expect(card.getByTestId('decode-total-out')).toHaveText('5,282 / 2,113 tok/s');
  await expect(card.getByTestId('decode-worked')).toContainText(
    'A, 32 × 1,024 tokens (Llama 3 8B): (16 GB + 32 × 0.134 GB of KV) ÷ 3,350 GB/s = 6.06 ms; 2 × 8B × 32 = 512 GFLOP ÷ 989 TFLOPS = 0.518 ms → bandwidth binds',
  );
  await expect(card.getByTestId('decode-worked')).toContainText('A: (80 − 16) GB ÷ 0.134 GB per sequence = 476 sequences fit');
  // Past the KV limit the GPU runs what fits, and says what binds.
  await card.getByTestId('decode-batch').fill('600');
  await expect(card.getByTestId('decode-bound-out')).toHaveText('KV memory / KV memory');
  await expect(card.getByTestId('decode-total-out')).toHaveText('19,961 / 4,988 tok/s');
  await expect(card.getByTestId('decode-worked')).toContainText('fewer than the 600 asked for: the figures are for 476');
  // Short contexts and a big batch: arithmetic takes over.
  await card.getByTestId('decode-context').fill('128');
  await card.getByTestId('decode-batch').fill('512');
  await expect(card.getByTestId('decode-bound-out')).toHaveText('compute / compute');
  // Long contexts: the KV cache leaves room for few sequences, fewest for the larger model.
  await card.getByRole('button', { name: '32K' }).click();
  await expect(card.getByTestId('decode-max-batch-out')).toHaveText('14 / 3');
  await expect(card).not.toContainText('NaN');
  expect(errors).toEqual([]);
});

test('each batch output starts with its number, and the limit is named', async ({ page }) => {
  const card = await openCard(page);
  await h100With8bFp16(card);
  for (const batch of ['1', '8', '256', '5000']) {
    await card.getByTestId('decode-batch').fill(batch);
    for (const id of ['decode-per-request-out', 'decode-total-out', 'decode-max-batch-out']) {
      await expect(card.getByTestId(id)).toHaveText(/^\d/);
    }
    await expect(card.getByTestId('decode-bound-out')).toHaveText(/^(bandwidth|compute|KV memory) \/ (bandwidth|compute|KV memory)$/);
  }
  // Without a memory figure nothing caps the batch, and the output says why.
  await card.getByTestId('decode-gpu-memory').fill('');
  await expect(card.getByTestId('decode-max-batch-out')).toHaveText('not capped: memory not given');
  await expect(card.getByTestId('decode-bound-out')).not.toContainText('KV memory');
});

test('bad batch, context, compute or architecture: a message by the field, nothing absurd', async ({ page }) => {
  const card = await openCard(page);
  await h100With8bFp16(card);
  await card.getByTestId('decode-batch').fill('32');
  await expect(card.getByTestId('decode-total-out')).toHaveText('5,282 / 2,113 tok/s');
  for (const [testid, bad, message, good] of [
    ['decode-batch', '0', 'at least 1', '32'],
    ['decode-batch', '2.5', 'whole number', '32'],
    ['decode-batch', '1e9', 'at most 100,000', '32'],
    ['decode-context', 'long', 'not a number', '1024'],
    ['decode-context', '', 'Enter a number', '1024'],
    ['decode-tflops', '-5', 'more than 0', '989'],
  ]) {
    await card.getByTestId(testid).fill(bad);
    await expect(card.getByRole('alert').filter({ hasText: message })).toBeVisible();
    await expect(card.getByTestId('decode-total-out')).toHaveText('5,282 / 2,113 tok/s');
    await expect(card.locator('.output.stale')).toHaveCount(8);
    await expect(card).not.toContainText('NaN');
    await card.getByTestId(testid).fill(good);
    await expect(card.locator('.output.stale')).toHaveCount(0);
  }
  // An architecture a link carries but the menu does not know is named, not guessed.
  const other = await page.context().newPage();
  const again = await openCard(other, '?dc.aa=gpt-9');
  await expect(again.getByRole('alert').filter({ hasText: '“gpt-9” is not an architecture' })).toBeVisible();
  await expect(again.getByTestId('decode-per-request-out')).toHaveText('—');
});

test('a shared link carries the batch, the context, the compute and the architectures', async ({ page }) => {
  const card = await openCard(page);
  await h100With8bFp16(card);
  await card.getByTestId('decode-batch').fill('32');
  await card.getByRole('button', { name: '8K' }).click();
  await card.getByTestId('decode-arch-b').selectOption('llama3-405b');
  await expect(page).toHaveURL(/dc\.batch=32/);
  await expect(page).toHaveURL(/dc\.ctx=8192/);
  await expect(page).toHaveURL(/dc\.tf=989/);
  await expect(page).toHaveURL(/dc\.ba=llama3-405b/);
  const shown = await card.getByTestId('decode-total-out').textContent();
  const other = await page.context().newPage();
  const again = await openCard(other, new URL(page.url()).search);
  await expect(again.getByTestId('decode-batch')).toHaveValue('32');
  await expect(again.getByTestId('decode-context')).toHaveValue('8192');
  await expect(again.getByTestId('decode-arch-b')).toHaveValue('llama3-405b');
  await expect(again.getByTestId('decode-total-out')).toHaveText(shown);
});

test('a mixture of experts reads more of its experts as the batch grows: 22, 64, 87 %', async ({ page }) => {
  const card = await openCard(page);
  await card.getByRole('button', { name: /DeepSeek-R1/ }).click();
  await expect(card.getByTestId('decode-arch-b')).toHaveValue('deepseek-r1');
  const worked = card.getByTestId('decode-worked');
  for (const [batch, share] of [['8', '22'], ['32', '64'], ['64', '87']]) {
    await card.getByTestId('decode-batch').fill(batch);
    await expect(worked).toContainText(`(${share}% of the routed experts)`);
  }
  // At batch 1 it reads just the 37 GB one token needs.
  await card.getByTestId('decode-batch').fill('1');
  await expect(worked).toContainText('B, 1 × 1,024 tokens (DeepSeek-R1): (37 GB of weights (3% of the routed experts)');
});
