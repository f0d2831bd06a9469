// The measuring lab (its own page, "Measure it yourself"): one press of Start, a worker that
// measures this browser's read bandwidth and decodes the trained tiny model and a random-weight M
// at f32, int8 and int4; the table against the course's ceiling, the tiny model's quality and its
// greedy text; Stop, a failed allocation, the result kept and offered to the decode ceiling.
// Every run here is the quick one (tiny and M with 2 of its 8 blocks), which takes seconds.
const { test, expect } = require('@playwright/test');
const fs = require('node:fs');
const path = require('node:path');
const { appReady, watchErrors } = require('./course');

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../models/manifest.json'), 'utf8'));
const RUN = 120_000;
const PRECISIONS = ['f32', 'int8', 'int4'];
/** A figure at the start of a cell: "12.3 …", "1,234 …", "97% …". */
const NUMBER_FIRST = /^\d[\d,]*(\.\d+)?\b/;

/** Requests into the lab's folder (the engine, its worker, the models). */
function watchLab(page) {
  const urls = [];
  page.on('request', (r) => {
    if (/\/lab-[0-9a-f]+\//.test(r.url())) urls.push(r.url());
  });
  return urls;
}

async function openLab(page, query = '') {
  await page.goto('/measure-it-yourself/' + query);
  await appReady(page);
  const card = page.locator('[data-widget="decode-lab"]');
  await card.scrollIntoViewIfNeeded();
  await expect(card.getByTestId('lm-start')).toBeEnabled();
  return card;
}

async function quickRun(card) {
  await card.getByTestId('lm-run').selectOption('quick');
  await card.getByTestId('lm-start').click();
  await expect(card.getByTestId('lm-stop')).toBeEnabled();
  await expect(card.getByTestId('lm-progress')).toHaveText(/^100% · Done/, { timeout: RUN });
}

test('nothing of the lab loads before Start; a quick run fills the table, the quality, the sample, and the decode ceiling gains this device', async ({ page }) => {
  test.setTimeout(RUN + 60_000);
  const errors = watchErrors(page);
  const lab = watchLab(page);
  // The decode ceiling, before any run: no device of this browser in its menu.
  await page.goto('/why-size-wins/');
  await appReady(page);
  const ceiling = page.locator('[data-widget="decode-ceiling"]');
  await ceiling.scrollIntoViewIfNeeded();
  await expect(ceiling.getByTestId('decode-tps-a')).toHaveText(NUMBER_FIRST);
  await expect(ceiling.locator('[data-testid="decode-gpu"] option[value="this-device"]')).toHaveCount(0);
  const card = await openLab(page);
  await expect(card.getByTestId('lm-progress')).toHaveText(/^0% · not started/);
  await expect(card.getByTestId('lm-row')).toHaveCount(0);
  await page.waitForTimeout(500);
  expect(lab).toEqual([]);

  await quickRun(card);
  expect(lab.some((u) => u.endsWith('/worker.js'))).toBe(true);
  expect(lab.some((u) => u.endsWith('/models/teacher.ielm'))).toBe(true);
  await expect(card.getByTestId('lm-bandwidth-out')).toHaveText(/^\d+(\.\d)? GB\/s from main memory/);
  await expect(card.getByTestId('lm-cache-bandwidth-out')).toHaveText(/^\d+(\.\d)? GB\/s from cache/);
  let memory = parseFloat(await card.getByTestId('lm-bandwidth-out').textContent());
  expect(memory).toBeGreaterThan(0.1);

  for (const model of ['tiny', 'm']) {
    for (const precision of PRECISIONS) {
      const row = card.locator(`[data-testid="lm-row"][data-model="${model}"][data-precision="${precision}"]`);
      await expect(row).toHaveCount(1);
      for (const cell of ['lm-mb-per-token', 'lm-ceiling', 'lm-tps', 'lm-share']) {
        await expect(row.getByTestId(cell)).toHaveText(NUMBER_FIRST);
      }
      // The ceiling is the course's: measured bandwidth ÷ MB per token.
      const mb = parseFloat(await row.getByTestId('lm-mb-per-token').textContent());
      const ceilingTps = parseFloat((await row.getByTestId('lm-ceiling').textContent()).replace(/,/g, ''));
      expect(Math.abs(ceilingTps - (memory * 1000) / mb) / ceilingTps).toBeLessThan(0.06);
      if (model === 'tiny') {
        await expect(row.getByTestId('lm-loss')).toHaveText(/^\d\.\d{3} bits\/char/);
        await expect(row.getByTestId('lm-agreement')).toHaveText(/^\d+(\.\d)?%/);
      } else {
        await expect(row.getByTestId('lm-loss')).toHaveCount(0);
      }
    }
  }
  // Smaller weights, fewer bytes per token: int4 < int8 < f32 for M. (Each figure also counts the
  // KV cache read at the positions its timing reached, which a faster run takes further, so only
  // the order and a wide margin hold from run to run.)
  const mbOf = async (p) =>
    parseFloat(await card.locator(`[data-testid="lm-row"][data-model="m"][data-precision="${p}"] [data-testid="lm-mb-per-token"]`).textContent());
  const [f32, int8, int4] = [await mbOf('f32'), await mbOf('int8'), await mbOf('int4')];
  expect(int8).toBeLessThan(f32 / 2);
  expect(int4).toBeLessThan(int8);
  // The quality line agrees with the manifest the training wrote (the f32 file, f32 arithmetic).
  const loss = (p) => card.locator(`[data-testid="lm-row"][data-model="tiny"][data-precision="${p}"] [data-testid="lm-loss"]`);
  const expected = manifest.models.teacher.heldout_bits_per_char;
  expect(Math.abs(parseFloat(await loss('f32').textContent()) - expected.f32)).toBeLessThan(0.01);
  expect(Math.abs(parseFloat(await loss('int8').textContent()) - expected.int8)).toBeLessThan(0.01);
  await expect(card.getByTestId('lm-roofline')).toBeVisible();

  // Greedy text: the manifest's golden sample at f32, and each precision's own on the select.
  await expect(card.getByTestId('lm-sample-precision')).toHaveValue('f32');
  await expect(card.getByTestId('lm-sample')).toHaveText(manifest.models.teacher.golden_sample, { useInnerText: false });
  const texts = {};
  for (const p of PRECISIONS) {
    await card.getByTestId('lm-sample-precision').selectOption(p);
    await expect(card.getByTestId('lm-sample')).not.toHaveText('');
    texts[p] = await card.getByTestId('lm-sample').textContent();
    expect(texts[p].length).toBe(200);
  }
  expect(texts.f32).toBe(manifest.models.teacher.golden_sample);

  // Kept: after a reload the table is there again, said to be the last run, and a second run
  // writes the same text (greedy decoding is deterministic).
  await page.reload();
  await appReady(page);
  await card.scrollIntoViewIfNeeded();
  await expect(card.getByTestId('lm-row')).toHaveCount(6);
  await expect(card.getByTestId('lm-messages')).toContainText('Your last run');
  await card.getByTestId('lm-sample-precision').selectOption('int4');
  await expect(card.getByTestId('lm-sample')).toHaveText(texts.int4);
  await quickRun(card);
  for (const p of PRECISIONS) {
    await card.getByTestId('lm-sample-precision').selectOption(p);
    await expect(card.getByTestId('lm-sample')).toHaveText(texts[p]);
  }
  expect(errors).toEqual([]);
  // The second run measured the bandwidth anew: the decode ceiling offers that one.
  memory = parseFloat(await card.getByTestId('lm-bandwidth-out').textContent());

  // The decode ceiling on the lesson before now offers this browser, with the bandwidth measured.
  await page.goto('/why-size-wins/');
  await appReady(page);
  await ceiling.scrollIntoViewIfNeeded();
  const gpu = ceiling.getByTestId('decode-gpu');
  await expect(gpu.locator('option[value="this-device"]')).toHaveCount(1);
  await gpu.selectOption('this-device');
  // The figure the lab kept for it (three significant figures where the table shows one decimal),
  // which is a measured bandwidth of this browser. (Once in a full test run it differed from the
  // second run's by 2.4 %, as if the first run's had stayed: see the closing note of stop 59.)
  const typed = parseFloat(await ceiling.getByTestId('decode-bandwidth').inputValue());
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('ie-course:lab-device')).data.gbPerS);
  expect(typed).toBe(kept);
  expect(Math.abs(typed - memory) / memory).toBeLessThan(0.15);
  await expect(ceiling.getByTestId('decode-tps-a')).toHaveText(NUMBER_FIRST);
  expect(errors).toEqual([]);
  expect(lab.filter((u) => !/\/lab-[0-9a-f]+\/(worker\.js|engine[^/]*|models\/[^/]+)$/.test(u))).toEqual([]);
});

test('Stop mid-run ends the worker, keeps what was measured, and lets the reader start again', async ({ page }) => {
  test.setTimeout(RUN + 30_000);
  const errors = watchErrors(page);
  const card = await openLab(page);
  await card.getByTestId('lm-start').click();
  await expect(card.getByTestId('lm-row').first()).toBeAttached({ timeout: RUN });
  await card.getByTestId('lm-stop').click();
  await expect(card.getByTestId('lm-progress')).toHaveText(/Stopped/);
  await expect(card.getByTestId('lm-stop')).toBeDisabled();
  await expect(card.getByTestId('lm-start')).toBeEnabled();
  await expect(card.getByTestId('lm-start')).toHaveText('Start again');
  const rows = await card.getByTestId('lm-row').count();
  expect(rows).toBeGreaterThan(0);
  expect(rows).toBeLessThan(9);
  // The worker is gone: nothing more arrives.
  const progress = await card.getByTestId('lm-progress').textContent();
  await page.waitForTimeout(2_000);
  await expect(card.getByTestId('lm-row')).toHaveCount(rows);
  await expect(card.getByTestId('lm-progress')).toHaveText(progress);
  expect(errors).toEqual([]);
});

test('a device without the memory for a model gets a message for that run, and the lab goes on', async ({ page }) => {
  test.setTimeout(RUN + 30_000);
  const errors = watchErrors(page);
  // The address caps the engine's large buffers at 20 MB: the 256 MiB bandwidth buffer (down to
  // 32 MiB) and M's f32 weights (26 MB in its 2 blocks) cannot be had; 16 MiB and the tiny model
  // (3.5 MB at f32) still can.
  const card = await openLab(page, '?lm.memory=20');
  await expect(card.getByTestId('lm-memory-cap')).toContainText('20 MB');
  await quickRun(card);
  await expect(card.getByTestId('lm-row').and(page.locator('[data-model="tiny"]'))).toHaveCount(3);
  await expect(card.locator('[data-testid="lm-row"][data-model="m"][data-precision="f32"]')).toHaveCount(0);
  await expect(card.getByTestId('lm-message').filter({ hasText: /^M \(random\) at f32 could not be measured: ./ })).toHaveCount(1);
  await expect(card.getByTestId('lm-messages')).toContainText('could not be had');
  await expect(card.getByTestId('lm-bandwidth-out')).toHaveText(/^\d+(\.\d)? GB\/s from main memory \(16 MiB\)/);
  await expect(card.getByTestId('lm-sample')).toHaveText(manifest.models.teacher.golden_sample);
  expect(errors).toEqual([]);
});
