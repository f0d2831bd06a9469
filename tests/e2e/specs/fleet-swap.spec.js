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
    await expect(card.locator('.output.stale')).toHaveCount(5);
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
  await expect(page).toHaveURL(/fs\.small=16/);
  await expect(page).toHaveURL(/dc\.bw=300/);
  const other = await page.context().newPage();
  const again = await openCard(other, new URL(page.url()).search);
  await expect(again.getByTestId('fleet-small-gpus')).toHaveText('26 GPUs');
  await expect(other.locator('[data-widget="decode-ceiling"]').getByTestId('decode-tps-a')).toHaveText('60 tok/s');
});

test('DeepSeek-R1 today: GPU time from the 37 GB it reads, memory from the 671 GB it holds', async ({ page }) => {
  const card = await openCard(page);
  const note = card.getByTestId('fleet-fit-note');
  await expect(card.getByTestId('fleet-gpu-memory')).toHaveValue('80');
  await expect(note).toContainText('Memory is not the limit');
  await card.getByRole('button', { name: /DeepSeek-R1/ }).click();
  await expect(card.getByTestId('fleet-large-gb')).toHaveValue('671');
  await expect(card.getByTestId('fleet-large-read-gb')).toHaveValue('37');
  // 37 GB ÷ 5 GB, not 671 GB ÷ 5 GB.
  await expect(card.getByTestId('fleet-ratio')).toHaveText('7.4×');
  await expect(card.getByTestId('fleet-small-gpus')).toHaveText('2 GPUs');
  await expect(card.getByTestId('fleet-worked')).toContainText('37 GB ÷ 5 GB = 7.4×');
  // Eight 80 GB GPUs cannot hold 671 GB, and the widget says so.
  await expect(note).toHaveText("Today's 8 GPUs of 80 GB cannot hold the large model's 671 GB of weights: that takes at least 9 GPUs.");
  await expect(note).toHaveClass(/overflow/);
  await card.getByTestId('fleet-gpus').fill('16');
  await expect(card.getByTestId('fleet-small-gpus')).toHaveText('3 GPUs');
  await expect(note).toContainText('Memory is not the limit');
  await expect(note).not.toHaveClass(/overflow/);
});

test('moving to a mixture of experts: memory, not decode work, sets the new fleet', async ({ page }) => {
  const card = await openCard(page);
  const note = card.getByTestId('fleet-fit-note');
  await card.getByRole('button', { name: /70B · FP16 140 GB/ }).click();
  await card.getByTestId('fleet-small-gb').fill('671');
  await card.getByTestId('fleet-small-read-gb').fill('37');
  await expect(card.getByTestId('fleet-ratio')).toHaveText('3.78×');
  // Decode work alone would need 3 GPUs; holding 671 GB takes 9 of 80 GB.
  await expect(card.getByTestId('fleet-small-gpus')).toHaveText('9 GPUs');
  await expect(card.getByTestId('fleet-after').locator('.gpu-square')).toHaveCount(9);
  await expect(card.getByTestId('fleet-worked')).toContainText('671 GB in memory ÷ 80 GB per GPU = 8.39 → at least 9 GPUs to hold the weights');
  await expect(note).toContainText("The small model's decode work needs 3 GPUs, but its 671 GB of weights need 9 GPUs of 80 GB to hold");
  await expect(note).toContainText('the figure for traffic on the same GPUs does not apply');
  // Bigger GPUs lower the floor; no memory at all removes it, and the note says so.
  await card.getByTestId('fleet-gpu').selectOption('b200-192');
  await expect(card.getByTestId('fleet-gpu-memory')).toHaveValue('192');
  await expect(card.getByTestId('fleet-small-gpus')).toHaveText('4 GPUs');
  await card.getByTestId('fleet-gpu-memory').fill('');
  await expect(card.getByTestId('fleet-small-gpus')).toHaveText('3 GPUs');
  await expect(note).toContainText('GPU memory not given');
  // A read figure above the weights in memory is refused by its field.
  await card.getByTestId('fleet-small-read-gb').fill('700');
  await expect(card.getByRole('alert').filter({ hasText: 'at most the weights in memory, 671 GB' })).toBeVisible();
  await expect(card.locator('.output.stale')).toHaveCount(5);
});

test("the lesson's Try this: doubling traffic doubles each GPU's load, not the fleets; doubling today's fleet doubles the small one", async ({ page }) => {
  const card = await openCard(page);
  const load = card.getByTestId('fleet-load-per-gpu');
  await expect(load).toHaveText('579 → 4,630 tok/s');
  // Twice the requests: the widget starts from today's GPUs, so the fleets stay as they are
  // and each GPU must carry twice the tokens per second.
  await card.getByTestId('fleet-requests').fill('2000000');
  await expect(card.getByTestId('fleet-small-gpus')).toHaveText('1 GPU');
  await expect(card.getByTestId('fleet-before').locator('.gpu-square')).toHaveCount(8);
  await expect(load).toHaveText('1,157 → 9,259 tok/s');
  // If today's GPUs were full, twice as many: the small model's fleet doubles too, 8× apart.
  await card.getByTestId('fleet-gpus').fill('16');
  await expect(card.getByTestId('fleet-small-gpus')).toHaveText('2 GPUs');
  await expect(card.getByTestId('fleet-ratio')).toHaveText('8×');
  await expect(card.getByTestId('fleet-after').locator('.gpu-square')).toHaveCount(2);
  await expect(load).toHaveText('579 → 4,630 tok/s');
  await expect(card.getByTestId('fleet-worked')).toContainText('÷ 16 GPUs = 579 tok/s per GPU today; ÷ 2 GPUs = 4,630 tok/s per GPU after');
});

test('the model fields keep their labels, hooks and messages after folding into one component', async ({ page }) => {
  const card = await openCard(page);
  for (const [who, memory, read] of [['Large model', 'fleet-large-gb', 'fleet-large-read-gb'], ['Small model', 'fleet-small-gb', 'fleet-small-read-gb']]) {
    await expect(card.getByLabel(`${who}: weights in memory`)).toHaveAttribute('data-testid', memory);
    await expect(card.getByLabel(`${who}: read per token, if fewer (mixture of experts)`)).toHaveAttribute('data-testid', read);
    await expect(card.getByRole('group', { name: `${who} presets` })).toBeVisible();
  }
  // The fleet needs no architecture: only the decode ceiling serves a batch.
  await expect(card.getByLabel(/architecture/)).toHaveCount(0);
});

test('a link whose values all fail: a message by each field, one dash for each result, and no fleet drawn', async ({ page }) => {
  const card = await openCard(page, '?fs.req=abc&fs.large=-5&fs.gpus=0');
  await expect(card.getByText('\u201cabc\u201d is not a number.')).toBeVisible();
  await expect(card.getByText('Must be at least 1.')).toBeVisible();
  for (const id of ['fleet-tokens-per-day', 'fleet-ratio', 'fleet-small-gpus', 'fleet-traffic', 'fleet-load-per-gpu']) {
    await expect(card.getByTestId(id)).toHaveText('\u2014');
  }
  // Before there is a result, no row of GPUs says "0 GPUs".
  await expect(card.getByTestId('fleet-before')).toHaveCount(0);
  await expect(card.getByTestId('fleet-after')).toHaveCount(0);
  await expect(card.getByRole('img', { name: /0 GPUs/ })).toHaveCount(0);
  await card.getByTestId('fleet-requests').fill('1000000');
  await card.getByTestId('fleet-large-gb').fill('40');
  await card.getByTestId('fleet-gpus').fill('8');
  await expect(card.getByTestId('fleet-before').locator('.gpu-square')).toHaveCount(8);
  await expect(card.getByTestId('fleet-after').locator('.gpu-square')).toHaveCount(1);
});
