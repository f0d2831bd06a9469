// The mini eval graded by running the SQL: SQLite (its own wasm module, fetched only when a
// reader chooses execution grading) runs the schema, the reference and each answer, and a case
// passes when the answer returns the reference's rows.
const { test, expect } = require('@playwright/test');
const { appReady, watchErrors, SUB_ORIGIN } = require('./course');

/** Every request the page and its service worker make, by URL. */
function watchRequests(page) {
  const urls = [];
  page.context().on('request', (r) => urls.push(r.url()));
  return urls;
}

const isSqlModule = (url) => /\/ie-sql-[0-9a-f]+(_bg\.wasm|\.js)$/.test(new URL(url).pathname);

async function openEval(page) {
  await page.goto('/model-selection/');
  await appReady(page);
  const card = page.locator('[data-widget="mini-eval"]');
  await card.scrollIntoViewIfNeeded();
  await expect(card.getByTestId('eval-acc-candidate')).toHaveText('90%');
  return card;
}

/** The editable row of case `name`. */
function row(card, name) {
  return card.locator(`li.eval-case[data-case="${name}"]`);
}

/** Chooses execution grading and waits until every case has run. */
async function runOnSqlite(card) {
  await card.getByTestId('eval-grading').selectOption('execution');
  await expect(card.getByTestId('eval-grading-status')).toHaveText(/^(\d+) of \1 cases run on SQLite/, { timeout: 20_000 });
  await expect(card.locator('[data-testid="eval-case-result"][data-state="ran"]')).toHaveCount(await card.locator('li.eval-case').count());
}

test('the SQL engine loads only once execution grading is chosen, and each case shows its rows', async ({ page }) => {
  const errors = watchErrors(page);
  const requests = watchRequests(page);
  const card = await openEval(page);
  await page.waitForLoadState('networkidle');
  // Named by the build, fetched by no one yet (not even the service worker's precache).
  await expect(page.locator('meta[name="ie-course-sql"]')).toHaveCount(1);
  expect(requests.filter(isSqlModule)).toEqual([]);
  await expect(card.getByTestId('eval-case-result')).toHaveCount(0);
  const grading = card.getByTestId('eval-grading');
  await expect(grading).toHaveValue('text');
  await expect(grading.locator('option')).toHaveText(['Compare the SQL text', 'Run the SQL and compare the rows']);

  await runOnSqlite(card);
  expect(requests.filter(isSqlModule).length).toBeGreaterThanOrEqual(2);
  await expect(card.getByTestId('eval-grading-status')).toHaveText('10 of 10 cases run on SQLite, in your browser.');
  // The lesson's figures hold on the rows.
  await expect(card.getByTestId('eval-acc-baseline')).toHaveText('90%');
  await expect(card.getByTestId('eval-acc-candidate')).toHaveText('90%');
  await expect(card.getByTestId('eval-verdict')).toHaveText("rejected: critical case 'emails of admins' regressed");

  // The admins regression returns every user's email: the non-admins' rows are marked.
  const admins = row(card, 'emails of admins').getByTestId('eval-case-result');
  const reference = admins.locator('[data-side="reference"]');
  await expect(reference.locator('.eval-result-summary')).toHaveText('2 rows');
  await expect(reference.locator('tbody tr')).toHaveCount(2);
  await expect(admins.locator('[data-side="baseline"]')).toHaveAttribute('data-matches', 'true');
  const candidate = admins.locator('[data-side="candidate"]');
  await expect(candidate).toHaveAttribute('data-matches', 'false');
  await expect(candidate.locator('.eval-result-summary')).toHaveText('6 rows: 4 rows not in the reference');
  await expect(candidate.locator('tbody tr')).toHaveCount(5);
  await expect(candidate.locator('tr.differs td:nth-child(2)')).toHaveText(['bruno@example.com', 'chen@example.com', 'emil@example.com']);
  await expect(candidate.locator('tr:not(.differs) td:nth-child(2)')).toHaveText(['ada@example.com', 'dana@example.com']);
  await expect(candidate.locator('.eval-result-more')).toHaveText('and 1 more row, which differs');
  // Order counts only where the reference sorts.
  await expect(row(card, 'names in order').locator('.eval-result-order')).toContainText('order counts');
  await expect(row(card, 'distinct cities').locator('[data-side="baseline"] .eval-result-summary')).toHaveText('6 rows: 3 rows not in the reference');
  expect(errors).toEqual([]);
});

test('an answer that fails to run fails with the engine\'s message; same rows pass; a verdict by hand still wins', async ({ page }) => {
  const errors = watchErrors(page);
  const card = await openEval(page);
  await runOnSqlite(card);
  const names = row(card, 'all names');
  await names.getByLabel('Candidate SQL').fill('SELEC name FROM users');
  await expect(names.getByTestId('eval-result-error')).toHaveText('near "SELEC": syntax error');
  await expect(names.locator('[data-side="candidate"] .eval-result-summary')).toHaveText('fails to run: near "SELEC": syntax error');
  await expect(names.getByTestId('eval-candidate-pass')).not.toBeChecked();
  await expect(card.getByTestId('eval-acc-candidate')).toHaveText('80%');

  // Written differently, same rows: text grading would fail it, the rows pass it.
  const admins = row(card, 'emails of admins');
  await admins.getByLabel('Candidate SQL').fill('select email from users where is_admin');
  await expect(admins.getByTestId('eval-candidate-pass')).toBeChecked();
  await expect(admins.locator('[data-side="candidate"]')).toHaveAttribute('data-matches', 'true');
  await expect(card.getByTestId('eval-acc-candidate')).toHaveText('90%');

  // A verdict set by hand overrides the rows.
  await admins.getByTestId('eval-candidate-verdict').selectOption('fail');
  await expect(admins.getByTestId('eval-candidate-pass')).not.toBeChecked();
  await expect(card.getByTestId('eval-acc-candidate')).toHaveText('80%');
  await names.getByTestId('eval-candidate-pass').check();
  await expect(names.getByTestId('eval-candidate-verdict')).toHaveValue('pass');
  await expect(card.getByTestId('eval-acc-candidate')).toHaveText('90%');
  // Back to text grading: no result boxes, the text decides.
  await card.getByTestId('eval-grading').selectOption('text');
  await expect(card.getByTestId('eval-case-result')).toHaveCount(0);
  await expect(card.getByTestId('eval-grading-status')).toHaveText('');
  expect(errors).toEqual([]);
});

test('a schema edit runs every case again on the new rows', async ({ page }) => {
  const card = await openEval(page);
  await runOnSqlite(card);
  // The table without its rows: every query returns nothing, and the regression hides.
  await card.getByLabel('Schema the questions are about').fill(
    'CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, city TEXT NOT NULL, is_admin BOOLEAN NOT NULL);',
  );
  await expect(card.getByTestId('eval-acc-candidate')).toHaveText('100%');
  await expect(card.getByTestId('eval-acc-baseline')).toHaveText('100%');
  await expect(row(card, 'emails of admins').locator('[data-side="candidate"] .eval-result-summary')).toHaveText('0 rows, the same as the reference');
  // A schema that fails to run fails every case, with its message on each.
  await card.getByLabel('Schema the questions are about').fill('CREATE TABLE users (');
  await expect(card.getByTestId('eval-acc-candidate')).toHaveText('0%');
  await expect(row(card, 'count users').getByTestId('eval-result-error').first()).toHaveText('the schema fails to run: incomplete input');
});

test('the grading choice and the schema travel in the JSON export and import, and survive a reload', async ({ page }) => {
  const errors = watchErrors(page);
  const card = await openEval(page);
  await runOnSqlite(card);
  const [download] = await Promise.all([page.waitForEvent('download'), card.getByTestId('eval-export-json').click()]);
  const data = JSON.parse(require('fs').readFileSync(await download.path(), 'utf8'));
  expect(data.version).toBe(2);
  expect(data.grading).toBe('execution');
  expect(data.schema).toContain("(4, 'Dana', 'dana@example.com', 'Berlin', TRUE)");

  // Stored: a reload comes back to execution grading, and the engine runs the cases again.
  await page.reload();
  await appReady(page);
  await card.scrollIntoViewIfNeeded();
  await expect(card.getByTestId('eval-grading')).toHaveValue('execution');
  await expect(card.locator('[data-testid="eval-case-result"][data-state="ran"]')).toHaveCount(10, { timeout: 20_000 });

  // A reset is the lesson's eval, graded by text; importing the file brings both back.
  await card.getByTestId('eval-reset').click();
  await expect(card.getByTestId('eval-grading')).toHaveValue('text');
  await expect(card.getByTestId('eval-case-result')).toHaveCount(0);
  data.schema += "\nINSERT INTO users VALUES (7, 'Gus', 'gus@example.com', 'Oslo', TRUE);";
  await card.getByTestId('eval-import').fill(JSON.stringify(data));
  await card.getByTestId('eval-import-apply').click();
  await expect(card.getByTestId('eval-grading')).toHaveValue('execution');
  await expect(card.getByLabel('Schema the questions are about')).toHaveValue(/'Gus'/);
  const reference = row(card, 'emails of admins').locator('[data-side="reference"]');
  await expect(reference.locator('.eval-result-summary')).toHaveText('3 rows', { timeout: 20_000 });
  expect(errors).toEqual([]);
});

test('under a sub-path the engine loads from the site\'s base', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto(`${SUB_ORIGIN}/some/sub/path/model-selection/`);
  await appReady(page);
  const card = page.locator('[data-widget="mini-eval"]');
  await card.scrollIntoViewIfNeeded();
  await runOnSqlite(card);
  await expect(row(card, 'emails of admins').locator('[data-side="candidate"] tr.differs')).toHaveCount(3);
  expect(errors).toEqual([]);
});

// A service worker's own fetches pass by the page's routes: without it, the route can refuse.
test.describe('without a service worker', () => {
  test.use({ serviceWorkers: 'block' });
  test('if the engine cannot be fetched, grading stays on the text and says so', async ({ page }) => {
    await page.route(/\/ie-sql-[0-9a-f]+/, (route) => route.abort());
    const card = await openEval(page);
    await card.getByTestId('eval-grading').selectOption('execution');
    await expect(card.getByTestId('eval-grading-status')).toContainText('The SQL engine could not be loaded', { timeout: 20_000 });
    await expect(card.getByTestId('eval-grading-status')).toContainText('grading stays on the SQL text; nothing was lost');
    await expect(card.getByTestId('eval-grading')).toHaveValue('text');
    await expect(card.getByTestId('eval-case-result')).toHaveCount(0);
    await expect(card.getByTestId('eval-acc-candidate')).toHaveText('90%');
    // Once the module can be had, choosing again loads it.
    await page.unroute(/\/ie-sql-[0-9a-f]+/);
    await runOnSqlite(card);
  });
});
