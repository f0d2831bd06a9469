// The page object of the course shell: how tests reach what a reader sees.
const { expect } = require('@playwright/test');

/** Lesson slugs and titles, in order, read from the built title page (not hard-coded). */
async function lessonsOf(page) {
  return page.locator('nav#toc ol a').evaluateAll((links) =>
    links.map((a) => ({
      slug: new URL(a.href).pathname.split('/').filter(Boolean).pop(),
      title: (a.querySelector('.toc-title') || a).textContent.trim(),
    })),
  );
}

/** Collects console errors, uncaught exceptions and Content-Security-Policy violations of a
 * page (call before the first goto). */
function watchErrors(page) {
  const errors = [];
  page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`);
    });
  });
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  return errors;
}

/** Waits until the app (not only the pre-rendered page) is running. */
async function appReady(page) {
  await expect(page.locator('[data-testid="theme-toggle"]')).toBeVisible();
}

/** Opens `path`, waits for the app, and returns widget `name`'s card scrolled into view. */
async function openWidget(page, path, name) {
  await page.goto(path);
  await appReady(page);
  const card = page.locator(`[data-widget="${name}"]`);
  await card.scrollIntoViewIfNeeded();
  return card;
}

/** The origins the static servers listen on (see playwright.config.js). */
const ORIGIN = process.env.E2E_ORIGIN || 'http://127.0.0.1:4173';
const SUB_ORIGIN = process.env.E2E_SUB_ORIGIN || 'http://127.0.0.1:4174';

module.exports = { lessonsOf, watchErrors, appReady, openWidget, ORIGIN, SUB_ORIGIN };
