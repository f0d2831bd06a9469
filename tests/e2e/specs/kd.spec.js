// Real distillation in 1.3 ("Distillation, measured"): one press of Start loads the teacher and
// six students into the lab's worker, which scores each against the teacher on the held-out text,
// times it and writes its greedy continuation of the prompt. The figures are the manifest's
// (reproduced in this browser from the committed weights), the samples deterministic.
const { test, expect } = require('@playwright/test');
const fs = require('node:fs');
const path = require('node:path');
const { appReady, watchErrors } = require('./course');

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../models/manifest.json'), 'utf8'));
const RUN = 120_000;
const NUMBER_FIRST = /^\d[\d,]*(\.\d+)?\b/;
const MODELS = [
  ['teacher', '1', 'teacher'],
  ['hard', '0.01', 'student-hard-1'], ['soft', '0.01', 'student-soft-1'],
  ['hard', '0.1', 'student-hard-10'], ['soft', '0.1', 'student-soft-10'],
  ['hard', '1', 'student-hard-100'], ['soft', '1', 'student-soft-100'],
];

async function openCard(page) {
  await page.goto('/model-selection/');
  await appReady(page);
  const card = page.locator('[data-widget="distill-lab"]');
  await card.scrollIntoViewIfNeeded();
  await expect(card.getByTestId('kd-start')).toBeEnabled();
  return card;
}

/** The samples in the table's order. */
async function samples(card) {
  return card.getByTestId('kd-sample').allTextContents();
}

/** Each sample's prompt (`data-prompt`), in the table's order. */
async function prompts(card) {
  return card.getByTestId('kd-sample').evaluateAll((els) => els.map((e) => e.dataset.prompt ?? null));
}

/** The samples once every model has written its continuation of `prompt` (each model answers
 * in its own message, so until then the table mixes prompts). */
async function written(card, prompt) {
  await expect.poll(() => prompts(card)).toEqual(Array(7).fill(prompt));
  return samples(card);
}

/** Counts the `samples` jobs the page sends the lab's worker (each is seven continuations). */
async function countSamplesJobs(page) {
  await page.addInitScript(() => {
    const post = Worker.prototype.postMessage;
    window.samplesJobs = 0;
    Worker.prototype.postMessage = function (message, ...rest) {
      if (message && message.type === 'samples') window.samplesJobs += 1;
      return post.call(this, message, ...rest);
    };
  });
}

test('nothing loads before Start; the run fills one row per model with the manifest figures and the golden samples, in order', async ({ page }) => {
  test.setTimeout(RUN + 60_000);
  const errors = watchErrors(page);
  const lab = [];
  page.on('request', (r) => {
    if (/\/lab-[0-9a-f]+\//.test(r.url())) lab.push(r.url());
  });
  const card = await openCard(page);
  await expect(card.getByTestId('kd-progress')).toHaveText(/^0% · not started/);
  await expect(card.getByTestId('kd-row')).toHaveCount(0);
  await page.waitForTimeout(500);
  expect(lab).toEqual([]);

  await card.getByTestId('kd-start').click();
  await expect(card.getByTestId('kd-progress')).toHaveText(/^100% · Done/, { timeout: RUN });
  expect(lab.some((u) => u.endsWith('/models/student-soft-1.ielm'))).toBe(true);
  await expect(card.getByTestId('kd-row')).toHaveCount(7);
  const order = await card.getByTestId('kd-row').evaluateAll((rows) =>
    rows.map((r) => [r.dataset.student, r.dataset.fraction]));
  expect(order).toEqual(MODELS.map(([s, f]) => [s, f]));

  for (const [student, fraction, name] of MODELS) {
    const entry = manifest.models[name];
    const row = card.locator(`[data-testid="kd-row"][data-student="${student}"][data-fraction="${fraction}"]`);
    for (const cell of ['kd-loss', 'kd-kl', 'kd-agreement', 'kd-tps']) {
      await expect(row.getByTestId(cell)).toHaveText(NUMBER_FIRST);
    }
    // Reproduced in this browser from the committed weights: the manifest's figures.
    const loss = parseFloat(await row.getByTestId('kd-loss').textContent());
    expect(Math.abs(loss - entry.heldout_bits_per_char.f32)).toBeLessThan(0.002);
    const kl = parseFloat(await row.getByTestId('kd-kl').textContent());
    expect(Math.abs(kl - (entry.kl_to_teacher_bits_per_char || 0))).toBeLessThan(0.002);
    const agreement = parseFloat(await row.getByTestId('kd-agreement').textContent());
    expect(Math.abs(agreement - 100 * (entry.agreement_with_teacher ?? 1))).toBeLessThan(0.15);
    expect(parseFloat((await row.getByTestId('kd-tps').textContent()).replace(/,/g, ''))).toBeGreaterThan(1);
    // Greedy text from the page's prompt, the manifest's golden prompt: its golden sample.
    await expect(row.getByTestId('kd-sample')).toHaveText(entry.golden_sample, { useInnerText: false });
  }
  // One sentence per amount of text, and the loss curves, which follow the chosen amount.
  await expect(card.getByTestId('kd-findings').locator('li')).toHaveCount(3);
  await expect(card.getByTestId('kd-findings')).toContainText('On 1\u00a0% of the text the distilled student');
  const curves = card.getByTestId('kd-curves');
  await expect(curves).toHaveAttribute('aria-label', /students trained on 1\u00a0% of the text/);
  await card.getByTestId('kd-fraction').selectOption('1');
  await expect(curves).toHaveAttribute('aria-label', /students trained on 100\u00a0% of the text/);
  expect(await curves.locator('path, polyline').count()).toBeGreaterThan(2);
  expect(errors).toEqual([]);
});

test('a new prompt has every model write again, the same text for the same prompt; a prompt the models cannot read gets a message', async ({ page }) => {
  test.setTimeout(RUN + 60_000);
  const errors = watchErrors(page);
  await countSamplesJobs(page);
  const card = await openCard(page);
  await card.getByTestId('kd-start').click();
  await expect(card.getByTestId('kd-progress')).toHaveText(/^100% · Done/, { timeout: RUN });
  const golden = await written(card, 'KING.\nNow, good my lord, ');
  expect(await page.evaluate(() => window.samplesJobs)).toBe(0);

  const prompt = card.getByTestId('kd-prompt');
  // Typing asks once it pauses, not once a keystroke.
  await prompt.fill('');
  await prompt.pressSequentially('ROMEO.', { delay: 30 });
  await prompt.press('Enter');
  await prompt.pressSequentially('What light ', { delay: 30 });
  const first = await written(card, 'ROMEO.\nWhat light ');
  expect(first).not.toEqual(golden);
  expect(first.every((s) => s.length > 20)).toBe(true);
  expect(await page.evaluate(() => window.samplesJobs)).toBe(1);
  // Away and back: the same prompt writes the same text.
  await prompt.fill('ROMEO.\nWhat ');
  expect(await written(card, 'ROMEO.\nWhat ')).not.toEqual(first);
  await prompt.fill('ROMEO.\nWhat light ');
  expect(await written(card, 'ROMEO.\nWhat light ')).toEqual(first);

  // Characters the models never saw: a message, and the samples stay as they were.
  await prompt.fill('Caf\u00e9 #1');
  await expect(card.getByTestId('kd-prompt-msg')).toHaveText(/never saw “é”, “#”|never saw “#”, “é”/);
  await expect(prompt).toHaveAttribute('aria-invalid', 'true');
  await page.waitForTimeout(600);
  expect(await prompts(card)).toEqual(Array(7).fill('ROMEO.\nWhat light '));
  expect(await samples(card)).toEqual(first);
  await prompt.fill('');
  await expect(card.getByTestId('kd-prompt-msg')).toHaveText(/^Type a few words/);
  await prompt.fill('KING.\nNow, good my lord, ');
  await expect(card.getByTestId('kd-prompt-msg')).toHaveText('');
  expect(await written(card, 'KING.\nNow, good my lord, ')).toEqual(golden);
  expect(errors).toEqual([]);
});

test('Stop ends the run and keeps the rows measured so far; Start again starts over', async ({ page }) => {
  test.setTimeout(RUN + 60_000);
  const errors = watchErrors(page);
  const card = await openCard(page);
  await card.getByTestId('kd-start').click();
  await expect(card.getByTestId('kd-row').first()).toBeVisible({ timeout: RUN });
  await card.getByTestId('kd-stop').click();
  await expect(card.getByTestId('kd-progress')).toHaveText(/^\d+% · Stopped/);
  const kept = await card.getByTestId('kd-row').count();
  expect(kept).toBeGreaterThan(0);
  await page.waitForTimeout(1500);
  expect(await card.getByTestId('kd-row').count()).toBe(kept);
  await expect(card.getByTestId('kd-start')).toHaveText('Start again');
  await card.getByTestId('kd-start').click();
  await expect(card.getByTestId('kd-progress')).toHaveText(/^100% · Done/, { timeout: RUN });
  await expect(card.getByTestId('kd-row')).toHaveCount(7);
  expect(errors).toEqual([]);
});
