// Every field a reader types into is a form of its own (see src/widgets/controls.rs): Chrome's
// autofill reads the whole form of a typed-in field on every key, and all of the page's
// formless fields for a field in no form. The forms send nothing.
const { test, expect } = require('@playwright/test');
const { appReady, watchErrors } = require('./course');

/** Opens `path` and waits until every widget on it is mounted. */
async function openMounted(page, path) {
  await page.goto(path);
  await appReady(page);
  const slots = await page.locator('[data-widget-slot]').count();
  expect(slots).toBeGreaterThan(0);
  await expect(page.locator('[data-widget-slot] > section.widget[data-widget]')).toHaveCount(slots, { timeout: 30_000 });
}

/** Each field of the widgets (text, number, search, select, textarea) with the size of its form. */
function fieldForms(page) {
  return page.evaluate(() => {
    const typed = (el) => el.matches('textarea, select, input:not([type]), input[type="text"], input[type="search"], input[type="number"]');
    const fields = [...document.querySelectorAll('section.widget')].flatMap((w) => [...w.querySelectorAll('input, select, textarea')]).filter(typed);
    return {
      fields: fields.map((el) => ({
        what: `${el.closest('section.widget').dataset.widget} ${el.dataset.testid || el.id || el.className}`,
        form: el.form ? [...el.form.elements].filter(typed).length : 0,
      })),
      nested: document.querySelectorAll('form form, dialog form').length,
    };
  });
}

for (const path of ['/print/', '/recall/']) {
  test(`every widget field on ${path} is a form of its own, none inside another`, async ({ page }) => {
    const errors = watchErrors(page);
    await openMounted(page, path);
    // The mini eval's rows come and go: one more case is drawn like the others.
    if (path === '/print/') await page.getByTestId('eval-add').click();
    const { fields, nested } = await fieldForms(page);
    expect(fields.length).toBeGreaterThan(path === '/print/' ? 60 : 2);
    // One field to a form; a distillation cell's number and its slider count as one.
    for (const f of fields) expect(f.form, f.what).toBe(1);
    expect(nested).toBe(0);
    expect(errors).toEqual([]);
  });
}

test('Enter in a field sends nothing: the page stays, and so does what was typed', async ({ page }) => {
  const errors = watchErrors(page);
  await openMounted(page, '/model-selection/');
  await page.evaluate(() => { window.__stayed = true; });
  const path = () => new URL(page.url()).pathname;
  const field = page.getByTestId('distill-temperature');
  await field.fill('3');
  await field.press('Enter');
  const case1 = page.locator('li.eval-case input[type="text"]').first();
  await case1.fill('renamed case');
  await case1.press('Enter');
  await page.waitForTimeout(300);
  // (The loss playground keeps its inputs in the address's query; the path is the page's.)
  expect(path()).toBe('/model-selection/');
  expect(await page.evaluate(() => window.__stayed)).toBe(true);
  await expect(field).toHaveValue('3');
  await expect(case1).toHaveValue('renamed case');
  expect(errors).toEqual([]);
});
