// The try-it worksheet: lock first, then score, then the decision; kept, copied and exported.
const { test, expect } = require('@playwright/test');
const { appReady, watchErrors } = require('./course');

async function openWorksheet(page) {
  await page.goto('/why-size-wins/');
  await appReady(page);
  const card = page.locator('[data-widget="try-it"]');
  await card.scrollIntoViewIfNeeded();
  return card;
}

async function mark(card, which, prompts) {
  for (const n of prompts) await card.getByTestId(`tryit-${which}-${n}`).check();
}

test('refuses to score before the threshold is locked, then writes the decision', async ({ page }) => {
  const errors = watchErrors(page);
  const card = await openWorksheet(page);
  const decision = card.getByTestId('tryit-decision');
  await expect(decision).toContainText('No decision yet');
  await card.getByTestId('tryit-small-1').click();
  await expect(card.getByRole('alert').filter({ hasText: 'Lock the task and threshold first' })).toBeVisible();
  await expect(card.getByTestId('tryit-small-1')).not.toBeChecked();
  await expect(decision).not.toContainText('scored');

  await card.getByTestId('tryit-task').fill('Turn billing questions into SQL');
  await card.getByTestId('tryit-threshold').fill('8');
  await card.getByTestId('tryit-lock').click();
  await expect(card.getByTestId('tryit-lock')).toBeDisabled();
  await expect(card.getByTestId('tryit-locked-at')).toHaveText(/^Locked at \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  await expect(card.getByTestId('tryit-threshold')).toHaveJSProperty('readOnly', true);

  await mark(card, 'small', [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  await mark(card, 'large', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  await expect(decision).toContainText('the 3B model scored 9 of 10 against a threshold of 8, so it passes');
  await expect(decision).toContainText('the 14B model scored 10 of 10, so it passes too');
  await card.getByTestId('tryit-small-tps').fill('48');
  await card.getByTestId('tryit-large-tps').fill('12');
  await expect(decision).toContainText('48 tok/s for the 3B model against 12 tok/s for the 14B model (4.0×)');
  // Failing prompts are named when the small model falls short.
  await card.getByTestId('tryit-small-2').uncheck();
  await card.getByTestId('tryit-small-5').uncheck();
  await expect(decision).toContainText('the 3B model scored 7 of 10 against a threshold of 8, so it fails');
  await expect(decision).toContainText('failed prompts 2, 5 and 10');
  expect(errors).toEqual([]);
});

test('other thresholds and names: the sentence cites what was locked', async ({ page }) => {
  const card = await openWorksheet(page);
  await card.getByTestId('tryit-prompts').fill('5');
  await card.getByTestId('tryit-threshold').fill('4');
  await card.getByTestId('tryit-small-name').fill('Llama 3.2 1B');
  await card.getByTestId('tryit-lock').click();
  await mark(card, 'small', [1, 2, 3, 4]);
  await expect(card.getByTestId('tryit-decision')).toContainText(
    'the Llama 3.2 1B model scored 4 of 5 against a threshold of 4, so it passes',
  );
  await expect(card.getByTestId('tryit-scores')).toHaveText(/^4 of 5 for the Llama 3.2 1B model, 0 of 5/);
});

test('an unusable threshold is refused with a message, and nothing locks', async ({ page }) => {
  const card = await openWorksheet(page);
  for (const [bad, message] of [['11', 'at most 10'], ['abc', 'is not a number'], ['7.5', 'whole number'], ['', 'Enter a number']]) {
    await card.getByTestId('tryit-threshold').fill(bad);
    await card.getByTestId('tryit-lock').click();
    await expect(card.getByRole('alert').filter({ hasText: message })).toBeVisible();
    await expect(card.getByTestId('tryit-lock')).toBeEnabled();
    await expect(card.getByTestId('tryit-decision')).toContainText('No decision yet');
  }
  await card.getByTestId('tryit-small-tps').fill('-2');
  await expect(card.getByRole('alert').filter({ hasText: 'more than 0' })).toBeVisible();
});

test('the worksheet is kept across visits and can be cleared', async ({ page }) => {
  const card = await openWorksheet(page);
  await card.getByTestId('tryit-threshold').fill('6');
  await card.getByTestId('tryit-lock').click();
  await mark(card, 'small', [1, 2, 3, 4, 5, 6]);
  // tok/s, typed and stepped with the arrow keys, is kept with the rest.
  await card.getByTestId('tryit-small-tps').fill('48');
  await card.getByTestId('tryit-small-tps').press('ArrowUp');
  await expect(card.getByTestId('tryit-small-tps')).toHaveValue('49');
  await page.waitForTimeout(300);
  await page.reload();
  await appReady(page);
  const again = page.locator('[data-widget="try-it"]');
  await expect(again.getByTestId('tryit-lock')).toBeDisabled();
  await expect(again.getByTestId('tryit-small-6')).toBeChecked();
  await expect(again.getByTestId('tryit-small-tps')).toHaveValue('49');
  await expect(again.getByTestId('tryit-decision')).toContainText('scored 6 of 10 against a threshold of 6, so it passes');
  await again.getByTestId('tryit-clear').click();
  await again.getByTestId('tryit-clear').click();
  await expect(again.getByTestId('tryit-lock')).toBeEnabled();
  await expect(again.getByTestId('tryit-decision')).toContainText('No decision yet');
  await expect(again.getByTestId('tryit-small-tps')).toHaveValue('');
  await expect(again.getByTestId('tryit-threshold')).toHaveValue('8');
  await expect(again.getByTestId('tryit-prompts')).toHaveValue('10');
});

test('commands copy to the clipboard with feedback', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const card = await openWorksheet(page);
  await card.getByTestId('tryit-copy-bench').click();
  await expect(card.getByRole('status').filter({ hasText: 'Copied to the clipboard.' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('llama-bench -m');
  await card.getByTestId('tryit-copy-answers').click();
  const answers = await page.evaluate(() => navigator.clipboard.readText());
  // One turn per prompt, with standard input kept off the loop's prompts file; llama.cpp
  // removed -no-cnv (it was ignored and scripts hung at the chat prompt).
  expect(answers).toContain('llama-cli -m "$MODEL" -st');
  expect(answers).toContain('</dev/null');
  expect(answers).not.toContain('-no-cnv');
  // The lesson's script around the worksheet shows the very same commands.
  const lessonScript = await page.locator('main pre code.language-sh').first().textContent();
  expect(lessonScript).toContain(answers);
  expect(lessonScript).toContain('tg128');
});

test('exports the worksheet as Markdown', async ({ page }) => {
  const card = await openWorksheet(page);
  await card.getByTestId('tryit-task').fill('Summarise support tickets');
  await card.getByTestId('tryit-threshold').fill('8');
  await card.getByTestId('tryit-lock').click();
  await mark(card, 'small', [1, 2, 3, 4, 5, 6, 7, 8]);
  const [download] = await Promise.all([page.waitForEvent('download'), card.getByTestId('tryit-export').click()]);
  expect(download.suggestedFilename()).toBe('try-it-worksheet.md');
  const text = require('fs').readFileSync(await download.path(), 'utf8');
  expect(text).toContain('Summarise support tickets');
  expect(text).toMatch(/8 of 10 prompts, locked at \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  expect(text).toContain('| 8 | pass | fail |');
  expect(text).toContain('the 3B model scored 8 of 10 against a threshold of 8, so it passes');
});
