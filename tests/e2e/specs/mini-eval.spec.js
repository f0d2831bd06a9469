// The mini eval: edit the cases, see the accuracies, buckets and diffs move, decide, export,
// import, persist.
const { test, expect } = require('@playwright/test');
const { appReady, watchErrors, openWidget } = require('./course');

const openEval = (page) => openWidget(page, '/model-selection/', 'mini-eval');

/** The editable row of case `name` (not its mentions in buckets). */
function row(card, name) {
  return card.locator(`li.eval-case[data-case="${name}"]`);
}

/** Case names listed in one bucket. */
async function bucket(card, id) {
  return card.getByTestId(`eval-bucket-${id}`).locator('[data-case]').evaluateAll((els) => els.map((e) => e.dataset.case));
}

test('the lesson eval: 90% and 90%, one regressed, one fixed, rejected on the critical case', async ({ page }) => {
  const errors = watchErrors(page);
  const card = await openEval(page);
  await expect(card.getByTestId('eval-acc-baseline')).toHaveText('90%');
  await expect(card.getByTestId('eval-acc-candidate')).toHaveText('90%');
  await expect(card).toContainText('95% interval 59.6–98.2%');
  expect(await bucket(card, 'regressed')).toEqual(['emails of admins']);
  expect(await bucket(card, 'fixed')).toEqual(['distinct cities']);
  expect(await bucket(card, 'still-failing')).toEqual([]);
  expect((await bucket(card, 'unchanged')).length).toBe(8);
  await expect(card.getByTestId('eval-mcnemar')).toHaveText('1.00');
  await expect(card.getByTestId('eval-mcnemar-note')).toContainText('1 regressed against 1 fixed');
  await expect(card.getByTestId('eval-mcnemar-note')).toContainText('if the two systems were equally good');
  // What the 95% intervals mean for these numbers: 9 of 10 each, Wilson 59.6%–98.2%.
  await expect(card.getByTestId('eval-interval-note')).toContainText('that 10 cases cannot rule out');
  await expect(card.getByTestId('eval-interval-note')).toContainText('the baseline could be anywhere from 59.6% to 98.2%');
  await expect(card.getByTestId('eval-interval-note')).toContainText('The ranges overlap');
  await expect(card.getByTestId('eval-verdict')).toHaveText("rejected: critical case 'emails of admins' regressed");
  await expect(card.locator('li.eval-case')).toHaveCount(10);
  expect(errors).toEqual([]);
});

test('each changed case shows a token diff with the differing tokens marked', async ({ page }) => {
  const card = await openEval(page);
  const diffs = card.locator('.eval-diff');
  await expect(diffs).toHaveCount(2);
  const admins = diffs.filter({ hasText: 'emails of admins' });
  await expect(admins.locator('del')).toHaveText(['WHERE is_admin = TRUE']);
  await expect(admins.locator('ins')).toHaveCount(0);
  const cities = diffs.filter({ hasText: 'distinct cities' });
  await expect(cities.locator('ins')).toHaveText(['DISTINCT']);
  await expect(cities.locator('.eval-diff-side').first()).toHaveText(/SELECT city FROM users;/);
});

test('toggling a verdict moves the accuracy and the buckets; the select shows it was set by hand', async ({ page }) => {
  const card = await openEval(page);
  const paris = row(card, 'users in Paris');
  await paris.getByTestId('eval-candidate-pass').uncheck();
  await expect(card.getByTestId('eval-acc-candidate')).toHaveText('80%');
  await expect(card.getByTestId('eval-acc-baseline')).toHaveText('90%');
  expect(await bucket(card, 'regressed')).toEqual(['users in Paris', 'emails of admins']);
  await expect(paris.getByTestId('eval-candidate-verdict')).toHaveValue('fail');
  await card.getByTestId('eval-bucket-regressed').scrollIntoViewIfNeeded();
  await expect(card.getByTestId('eval-mcnemar')).toHaveText('1.00');
  // Baseline fails it too: still failing.
  await paris.getByTestId('eval-baseline-pass').uncheck();
  expect(await bucket(card, 'still-failing')).toEqual(['users in Paris']);
  await expect(card.getByTestId('eval-acc-baseline')).toHaveText('80%');
  // Back to automatic grading.
  await paris.getByTestId('eval-candidate-verdict').selectOption('auto');
  await paris.getByTestId('eval-baseline-verdict').selectOption('auto');
  await expect(card.getByTestId('eval-acc-candidate')).toHaveText('90%');
  expect(await bucket(card, 'still-failing')).toEqual([]);
  // Fixing the admins case by hand leaves no regression: accepted.
  await row(card, 'emails of admins').getByTestId('eval-candidate-pass').check();
  await expect(card.getByTestId('eval-acc-candidate')).toHaveText('100%');
  await expect(card.getByTestId('eval-verdict')).toHaveText(/^accepted: candidate 100% \(10\/10\) vs baseline 90% \(9\/10\)/);
});

test('editing a candidate SQL flips its automatic grade', async ({ page }) => {
  const card = await openEval(page);
  const admins = row(card, 'emails of admins');
  const sql = admins.getByLabel('Candidate SQL');
  await sql.fill('select email  from USERS where is_admin = true');
  await expect(admins.getByTestId('eval-candidate-pass')).toBeChecked();
  await expect(card.getByTestId('eval-acc-candidate')).toHaveText('100%');
  expect(await bucket(card, 'regressed')).toEqual([]);
  await sql.fill('SELECT email FROM users WHERE is_admin = FALSE');
  await expect(admins.getByTestId('eval-candidate-pass')).not.toBeChecked();
  await expect(card.getByTestId('eval-acc-candidate')).toHaveText('90%');
  await expect(card.locator('.eval-diff').filter({ hasText: 'emails of admins' }).locator('ins')).toHaveText(['FALSE']);
});

test('the changed cases follow every edit, and an edit elsewhere leaves a diff as it was', async ({ page }) => {
  const card = await openEval(page);
  const diffs = card.locator('.eval-diff');
  const cities = diffs.filter({ hasText: 'distinct cities' });
  const admins = diffs.filter({ hasText: 'emails of admins' });
  // A mark on the cities diff's element: it survives only if that element is kept.
  await cities.evaluate((el) => { el.dataset.kept = 'yes'; });
  await row(card, 'emails of admins').getByLabel('Candidate SQL').fill('SELECT name FROM users WHERE is_admin = TRUE');
  await expect(admins.locator('ins')).toHaveText(['name']);
  await expect(cities).toHaveAttribute('data-kept', 'yes');
  // The cities case's own changes show in its diff: its flag, then its name.
  await row(card, 'distinct cities').getByTestId('eval-critical').check();
  await expect(cities.locator('.eval-tag')).toHaveText('critical');
  await row(card, 'distinct cities').getByLabel('Name').fill('');
  await expect(diffs.nth(1).locator('.eval-diff-name')).toHaveText('case 4');
  // A case removed above it renumbers the nameless case, in its diff too.
  await card.getByRole('button', { name: 'Remove case 1', exact: true }).click();
  await expect(diffs.nth(1).locator('.eval-diff-name')).toHaveText('case 3');
  await expect(diffs.nth(1).locator('.eval-tag')).toHaveText('critical');
  // A case that stops changing outcome leaves the list; the other stays.
  await row(card, 'emails of admins').getByLabel('Candidate SQL').fill('SELECT email FROM users WHERE is_admin = TRUE');
  await expect(diffs).toHaveCount(1);
  await expect(diffs.first().locator('.eval-diff-name')).toHaveText('case 3');
  expect(await bucket(card, 'regressed')).toEqual([]);
});

test('tolerance and critical flags decide; a bad tolerance keeps the last verdict, marked stale', async ({ page }) => {
  const card = await openEval(page);
  const verdict = card.getByTestId('eval-verdict');
  await row(card, 'emails of admins').getByTestId('eval-critical').uncheck();
  await expect(verdict).toHaveText('accepted: candidate 90% (9/10) vs baseline 90% (9/10), within 0 points; 2 changed cases (1 fixed, 1 regressed)');
  // A second regression drops the candidate 10 points.
  await row(card, 'count users').getByTestId('eval-candidate-pass').uncheck();
  await expect(verdict).toHaveText('rejected: candidate accuracy 80% (8/10) is more than 0 points below baseline 90% (9/10)');
  await card.getByTestId('eval-tolerance').fill('10');
  await expect(verdict).toHaveText(/^accepted: candidate 80% \(8\/10\) vs baseline 90% \(9\/10\), within 10 points/);
  await card.getByTestId('eval-tolerance').fill('abc');
  await expect(card.getByRole('alert').filter({ hasText: 'is not a number' })).toBeVisible();
  await expect(verdict).toHaveText(/^accepted/);
  await expect(verdict).toHaveClass(/stale/);
  await row(card, 'count users').getByTestId('eval-critical').check();
  await expect(verdict).toHaveText(/^accepted/);
  await card.getByTestId('eval-tolerance').fill('10');
  await expect(verdict).toHaveText("rejected: critical case 'count users' regressed");
});

test('cases can be added, edited in every field, moved and removed, with undo', async ({ page }) => {
  const card = await openEval(page);
  await card.getByTestId('eval-add').click();
  await expect(card.locator('li.eval-case')).toHaveCount(11);
  const added = card.locator('li.eval-case').last();
  await added.getByLabel('Name').fill('oldest user');
  await added.getByLabel('Question').fill('Who joined first?');
  await added.getByLabel('Reference SQL').fill('SELECT name FROM users ORDER BY id LIMIT 1;');
  await added.getByLabel('Baseline SQL').fill('SELECT name FROM users ORDER BY id LIMIT 1');
  await added.getByLabel('Candidate SQL').fill('SELECT name FROM users LIMIT 1');
  await expect(card.getByTestId('eval-acc-baseline')).toHaveText('90.9%');
  await expect(card.getByTestId('eval-acc-candidate')).toHaveText('81.8%');
  expect(await bucket(card, 'regressed')).toEqual(['emails of admins', 'oldest user']);
  // Move it to the top: the bucket order follows.
  for (let i = 11; i > 1; i--) await card.getByRole('button', { name: `Move case ${i} up`, exact: true }).click();
  await expect(card.locator('li.eval-case').first()).toHaveAttribute('data-case', 'oldest user');
  await expect(card.getByRole('button', { name: 'Move case 1 up', exact: true })).toBeDisabled();
  expect(await bucket(card, 'regressed')).toEqual(['oldest user', 'emails of admins']);
  await card.getByRole('button', { name: 'Move case 1 down', exact: true }).click();
  await expect(card.locator('li.eval-case').nth(1)).toHaveAttribute('data-case', 'oldest user');
  // "emails of admins" is now case 6.
  await expect(card.locator('li.eval-case').nth(5)).toHaveAttribute('data-case', 'emails of admins');
  await card.getByRole('button', { name: 'Remove case 6', exact: true }).click();
  await expect(card.locator('li.eval-case')).toHaveCount(10);
  expect(await bucket(card, 'regressed')).toEqual(['oldest user']);
  await card.getByTestId('eval-undo').click();
  await expect(card.locator('li.eval-case')).toHaveCount(11);
  expect(await bucket(card, 'regressed')).toEqual(['oldest user', 'emails of admins']);
});

test('edits survive a reload, and reset brings back the lesson eval', async ({ page }) => {
  const card = await openEval(page);
  await row(card, 'distinct cities').getByTestId('eval-baseline-pass').check();
  await row(card, 'all names').getByLabel('Name').fill('every name');
  await card.getByTestId('eval-tolerance').fill('5');
  await expect(card.getByTestId('eval-acc-baseline')).toHaveText('100%');
  await page.reload();
  await appReady(page);
  const again = page.locator('[data-widget="mini-eval"]');
  await expect(again.getByTestId('eval-acc-baseline')).toHaveText('100%');
  await expect(row(again, 'every name')).toHaveCount(1);
  await expect(again.getByTestId('eval-tolerance')).toHaveValue('5');
  const stored = JSON.parse(await page.evaluate(() => localStorage.getItem('ie-course:mini-eval')));
  expect(stored.v).toBe(1);
  await again.getByTestId('eval-reset').click();
  await expect(again.getByTestId('eval-acc-baseline')).toHaveText('90%');
  await expect(row(again, 'all names')).toHaveCount(1);
  await expect(again.getByTestId('eval-tolerance')).toHaveValue('0');
  await page.reload();
  await appReady(page);
  await expect(page.getByTestId('eval-acc-baseline')).toHaveText('90%');
});

test('import: junk is refused with the line and field named, and nothing is lost', async ({ page }) => {
  const card = await openEval(page);
  await row(card, 'count users').getByTestId('eval-baseline-pass').uncheck();
  await expect(card.getByTestId('eval-acc-baseline')).toHaveText('80%');
  const input = card.getByTestId('eval-import');
  const apply = card.getByTestId('eval-import-apply');
  const alert = card.getByRole('alert').filter({ hasText: /./ });
  await input.fill('{\n  "cases": [\n    {"name": "a", "critical": "very"}\n  ]\n}');
  await apply.click();
  await expect(alert).toContainText('Line 3');
  await expect(alert).toContainText('field “critical”');
  await expect(alert).toContainText('Nothing was changed');
  await input.fill('pass, pass\npass, perhaps');
  await apply.click();
  await expect(alert).toContainText('Line 2: “perhaps” is not pass/fail');
  await input.fill('{"cases": [');
  await apply.click();
  await expect(alert).toContainText('Line 1, column 11');
  // Over 1 MB.
  await input.evaluate((el) => {
    el.value = '{"cases": []}' + ' '.repeat(1_000_001);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await apply.click();
  await expect(alert).toContainText('1 MB');
  await expect(card.getByTestId('eval-acc-baseline')).toHaveText('80%');
  await expect(card.locator('li.eval-case')).toHaveCount(10);
  await page.reload();
  await appReady(page);
  await expect(page.getByTestId('eval-acc-baseline')).toHaveText('80%');
});

test('import: pasted pass/fail columns and our JSON both apply', async ({ page }) => {
  const card = await openEval(page);
  const input = card.getByTestId('eval-import');
  const apply = card.getByTestId('eval-import-apply');
  // One line per case: the verdicts are set by hand, names kept.
  const lines = ['baseline\tcandidate', ...Array.from({ length: 10 }, (_, i) => (i < 3 ? 'pass\tfail' : 'pass\tpass'))];
  await input.fill(lines.join('\n'));
  await apply.click();
  await expect(card.getByTestId('eval-import-message')).toContainText('all 10 cases');
  await expect(card.getByTestId('eval-acc-baseline')).toHaveText('100%');
  await expect(card.getByTestId('eval-acc-candidate')).toHaveText('70%');
  expect(await bucket(card, 'regressed')).toEqual(['all names', 'count users', 'users in Paris']);
  // Another count: a fresh eval of that many cases.
  await input.fill('1,0\n0,0');
  await apply.click();
  await expect(card.locator('li.eval-case')).toHaveCount(2);
  await expect(card.getByTestId('eval-acc-baseline')).toHaveText('50%');
  expect(await bucket(card, 'still-failing')).toEqual(['case 2']);
  // Our JSON.
  await input.fill(JSON.stringify({ version: 1, cases: [
    { name: 'one', reference_sql: 'SELECT 1', baseline_sql: 'select 1;', candidate_sql: 'SELECT 2' },
  ] }));
  await apply.click();
  await expect(card.getByTestId('eval-import-message')).toHaveText('Imported the eval file: 1 case.');
  expect(await bucket(card, 'regressed')).toEqual(['one']);
  await expect(card.getByTestId('eval-acc-candidate')).toHaveText('0%');
  await card.getByTestId('eval-undo').click();
  await expect(card.locator('li.eval-case')).toHaveCount(2);
});

test('exports the eval as JSON and the results as CSV through blob links', async ({ page }) => {
  const card = await openEval(page);
  await row(card, 'count users').getByTestId('eval-candidate-pass').uncheck();
  const json = card.getByTestId('eval-export-json');
  await expect(json).toHaveAttribute('href', /^blob:/);
  const [download] = await Promise.all([page.waitForEvent('download'), json.click()]);
  expect(download.suggestedFilename()).toBe('mini-eval.json');
  const data = JSON.parse(require('fs').readFileSync(await download.path(), 'utf8'));
  expect(data.version).toBe(1);
  expect(data.cases).toHaveLength(10);
  expect(data.cases[1].candidate_verdict).toBe('fail');
  const [csvDownload] = await Promise.all([page.waitForEvent('download'), card.getByTestId('eval-export-csv').click()]);
  const csv = require('fs').readFileSync(await csvDownload.path(), 'utf8').split('\r\n');
  expect(csv[0]).toBe('name,question,critical,baseline,candidate,bucket,reference_sql,baseline_sql,candidate_sql');
  expect(csv[2]).toMatch(/^count users,How many users are there\?,no,pass,fail,regressed,/);
  // A download right after an edit carries the edit (the links are made on click too).
  await row(card, 'count users').getByLabel('Name').fill('count every user');
  const [edited] = await Promise.all([page.waitForEvent('download'), json.click()]);
  const editedData = JSON.parse(require('fs').readFileSync(await edited.path(), 'utf8'));
  expect(editedData.cases[1].name).toBe('count every user');
  await row(card, 'count every user').getByLabel('Name').fill('count users');
  // The exported JSON imports back to the same eval.
  await card.getByTestId('eval-reset').click();
  await card.getByTestId('eval-import').fill(JSON.stringify(data));
  await card.getByTestId('eval-import-apply').click();
  await expect(card.getByTestId('eval-acc-candidate')).toHaveText('80%');
});

test('a hostile case name shows as text and runs nothing', async ({ page }) => {
  const errors = watchErrors(page);
  let dialog = false;
  page.on('dialog', (d) => { dialog = true; d.dismiss(); });
  const card = await openEval(page);
  const hostile = '<img src=x onerror=alert(1)>';
  await row(card, 'emails of admins').getByLabel('Name').fill(hostile);
  await expect(card.getByTestId('eval-bucket-regressed').locator('li').first()).toHaveText(hostile);
  await expect(card.getByTestId('eval-bucket-regressed').locator('[data-case]')).toHaveAttribute('data-case', hostile);
  await expect(card.getByTestId('eval-verdict')).toHaveText(`rejected: critical case '${hostile}' regressed`);
  await expect(card.locator('.eval-diff-name').first()).toHaveText(hostile);
  await expect(card.locator('img')).toHaveCount(0);
  // Through an import too.
  await card.getByTestId('eval-import').fill(JSON.stringify({ cases: [{ name: hostile, question: hostile, baseline_verdict: 'pass', candidate_verdict: 'fail' }] }));
  await card.getByTestId('eval-import-apply').click();
  await expect(card.locator('.eval-diff-question')).toHaveText(hostile);
  await expect(card.locator('img')).toHaveCount(0);
  await page.reload();
  await appReady(page);
  await expect(page.locator('[data-widget="mini-eval"] img')).toHaveCount(0);
  expect(dialog).toBe(false);
  expect(errors).toEqual([]);
});

test('leaving the lesson right after an edit leaves no error behind', async ({ page }) => {
  const errors = watchErrors(page);
  const card = await openEval(page);
  await row(card, 'count users').getByLabel('Name').fill('count every user');
  // The export links refresh once edits pause; the widget is gone before that.
  await page.locator('nav#toc a').first().click();
  await expect(page.getByTestId('lesson')).not.toHaveAttribute('data-lesson', 'model-selection');
  await page.waitForTimeout(700);
  expect(errors).toEqual([]);
});
