// The glossary: terms marked in the lessons show their one-sentence definition on keyboard
// focus and on hover, lead to their entry on the glossary page, and the page itself works as a
// deep link at the root and under a sub-path, with and without JavaScript.
const { test, expect } = require('@playwright/test');
const { lessonsOf, watchErrors, appReady, ORIGIN, SUB_ORIGIN } = require('./course');

/** Presses Tab until a term mark has the focus; returns it. */
async function tabToTerm(page) {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.matches('a.term[data-term]'))) {
      return page.locator('a.term:focus');
    }
  }
  throw new Error('no term reached by Tab');
}

/** The tooltip that describes `term`. */
async function tipOf(term) {
  const id = await term.getAttribute('aria-describedby');
  return term.page().locator(`[id="${id}"]`);
}

test('Tab to a term: its definition shows in a tooltip that describes it; Escape hides it', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await appReady(page);
  const lessons = await lessonsOf(page);
  await page.goto(`/${lessons[3].slug}/`);
  await appReady(page);
  const term = await tabToTerm(page);
  const tip = await tipOf(term);
  await expect(tip).toBeVisible();
  await expect(tip).toHaveAttribute('role', 'tooltip');
  const definition = (await tip.textContent()).trim();
  expect(definition).toMatch(/^[A-Z].{20,}\.$/);
  // The link's name is the term alone; the definition is its description.
  await expect(term).toHaveAccessibleName((await term.textContent()).trim());
  await expect(term).toHaveAccessibleDescription(definition);
  await expect(tip).toBeInViewport();
  // Escape hides it while the focus stays; the next term's tooltip shows as usual.
  await page.keyboard.press('Escape');
  await expect(tip).toBeHidden();
  await expect(term).toBeFocused();
  const next = await tabToTerm(page);
  await expect(await tipOf(next)).toBeVisible();
  await expect(tip).toBeHidden();
  // Back on the first term, its tooltip shows again.
  await page.keyboard.press('Shift+Tab');
  await expect(term).toBeFocused();
  await expect(tip).toBeVisible();
  expect(errors).toEqual([]);
});

test('hovering a term shows its definition; moving away hides it; Escape dismisses it', async ({ page }) => {
  await page.goto('/');
  await appReady(page);
  const lessons = await lessonsOf(page);
  await page.goto(`/${lessons[5].slug}/`);
  await appReady(page);
  const term = page.locator('article a.term[data-term]').first();
  const tip = await tipOf(term);
  await expect(tip).toBeHidden();
  await term.hover();
  await expect(tip).toBeVisible();
  // The pointer can move onto the tooltip without it closing.
  const box = await tip.boundingBox();
  await page.mouse.move(box.x + 10, box.y + 4);
  await expect(tip).toBeVisible();
  await page.mouse.move(box.x + 10, box.y + box.height / 2);
  await expect(tip).toBeVisible();
  await page.mouse.move(5, 700);
  await expect(tip).toBeHidden();
  await term.hover();
  await expect(tip).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(tip).toBeHidden();
});

for (const width of [1280, 375]) {
  test(`a tooltip stays inside the screen and the text column (${width} px)`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    await page.goto('/model-selection/');
    await appReady(page);
    const terms = page.locator('article a.term[data-term]');
    const count = await terms.count();
    expect(count).toBeGreaterThan(10);
    // Every mark of the lesson, including those at the end of a line, and those on a block's
    // last lines, whose tooltip reaches over the widget below.
    let pastBlock = 0;
    for (let i = 0; i < count; i++) {
      const term = terms.nth(i);
      await term.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await term.hover();
      const tip = await tipOf(term);
      await expect(tip).toBeVisible();
      const [t, p, r] = await Promise.all([
        tip.boundingBox(),
        term.evaluate((el) => el.closest('.prose').getBoundingClientRect().toJSON()),
        term.evaluate((el) => el.getClientRects()[el.getClientRects().length - 1].toJSON()),
      ]);
      expect(t.x).toBeGreaterThanOrEqual(0);
      expect(t.x + t.width).toBeLessThanOrEqual(width);
      expect(t.x).toBeGreaterThanOrEqual(p.left - 1);
      expect(t.x + t.width).toBeLessThanOrEqual(p.right + 1);
      // Just under the term's line, not over it.
      expect(t.y).toBeGreaterThanOrEqual(r.bottom - 2);
      expect(t.y).toBeLessThan(r.bottom + 16);
      // Painted whole, on top: at its corners, the page shows the tip (a term at the very end
      // of the page may leave its tip below the screen; only what is on the screen counts).
      const onTop = await tip.evaluate((el) => {
        const b = el.getBoundingClientRect();
        return [[b.left + 4, b.top + 4], [b.right - 4, b.top + 4], [b.left + 4, b.bottom - 4], [b.right - 4, b.bottom - 4]]
          .filter(([, y]) => y < innerHeight)
          .map(([x, y]) => el.contains(document.elementFromPoint(x, y)));
      });
      expect(onTop, `the tooltip of term ${i} is painted whole`).not.toContain(false);
      if (onTop.length === 4 && t.y + t.height > p.bottom) pastBlock++;
    }
    expect(pastBlock).toBeGreaterThan(0);
    await context.close();
  });
}

test('following a term opens its glossary entry; the entry links back to where it is used', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await appReady(page);
  const lessons = await lessonsOf(page);
  const lesson = lessons[3];
  await page.goto(`/${lesson.slug}/`);
  await appReady(page);
  const term = page.locator('article a.term[data-term="kv-cache"]');
  const definition = (await (await tipOf(term)).textContent()).trim();
  await term.click();
  await expect(page).toHaveURL('/glossary/#term-kv-cache');
  await expect(page.getByTestId('glossary').locator('h1')).toHaveText('Glossary');
  await expect(page).toHaveTitle(/^Glossary · /);
  const entry = page.locator('[id="term-kv-cache"]');
  await expect(entry).toBeInViewport();
  await expect(entry).toBeFocused();
  await expect(entry.locator('dd p').first()).toHaveText(definition);
  // The contents mark the glossary as the current page.
  await expect(page.getByTestId('glossary-link')).toHaveAttribute('aria-current', 'page');
  // "Used in" goes back to the term's place in the lesson.
  await entry.getByRole('link', { name: lesson.title }).click();
  await expect(page).toHaveURL(`/${lesson.slug}/#use-kv-cache`);
  await expect(page.locator('[id="use-kv-cache"]')).toBeInViewport();
  await page.goBack();
  await expect(page).toHaveURL('/glossary/#term-kv-cache');
  // Related terms link within the page.
  await page.locator('[id="term-kv-cache"]').getByRole('link', { name: 'Prefill' }).click();
  await expect(page).toHaveURL('/glossary/#term-prefill');
  await expect(page.locator('[id="term-prefill"]')).toBeInViewport();
  expect(errors).toEqual([]);
});

test('the glossary lists every term the lessons mark, with the definition their tooltips show; it is not a lesson', async ({ page }) => {
  await page.goto('/');
  await appReady(page);
  const lessons = await lessonsOf(page);
  const marked = new Map();
  for (const { slug } of lessons) {
    await page.goto(`/${slug}/`);
    await appReady(page);
    const terms = await page.locator('article a.term[data-term]').evaluateAll((links) =>
      links.map((a) => ({
        id: a.dataset.term,
        href: a.getAttribute('href'),
        tip: document.getElementById(a.getAttribute('aria-describedby')).textContent.trim(),
      })),
    );
    // Every lesson marks at least one term, each once.
    expect(terms.length, slug).toBeGreaterThan(0);
    expect(new Set(terms.map((t) => t.id)).size, slug).toBe(terms.length);
    for (const t of terms) {
      expect(t.href).toBe(`glossary/#term-${t.id}`);
      marked.set(t.id, t.tip);
    }
  }
  // Reached from the contents; reading progress and the lesson count do not change.
  await page.getByTestId('glossary-link').click();
  await expect(page).toHaveURL('/glossary/');
  await expect(page.getByTestId('glossary').locator('h1')).toBeFocused();
  await expect(page.getByTestId('reading-progress')).toContainText(`0 of ${lessons.length} read`);
  await expect(page.getByTestId('glossary').locator('.eyebrow')).not.toContainText('Lesson');
  await expect(page.locator('.pager')).toHaveCount(0);
  // The glossary's text comes with its page, fetched on the move: read it once it is in.
  await expect(page.locator('.glossary-entry')).toHaveCount(marked.size);
  const entries = await page.locator('.glossary-entry').evaluateAll((els) =>
    els.map((el) => ({
      id: el.id.replace(/^term-/, ''),
      name: el.querySelector('dt').textContent.trim(),
      definition: el.querySelector('dd p').textContent.trim(),
    })),
  );
  expect(entries.length).toBe(marked.size);
  for (const [id, tip] of marked) {
    const entry = entries.find((e) => e.id === id);
    expect(entry, id).toBeTruthy();
    expect(entry.definition).toBe(tip);
  }
  // Alphabetical.
  const names = entries.map((e) => e.name.toLowerCase());
  expect(names).toEqual([...names].sort());
});

for (const [name, origin, base] of [
  ['at the root', ORIGIN, '/'],
  ['under a sub-path', SUB_ORIGIN, '/some/sub/path/'],
]) {
  test(`the glossary is a deep link that survives a reload ${name}, and a page without JavaScript`, async ({ page, browser, request }) => {
    const url = `${origin}${base}glossary/#term-prefill`;
    await page.goto(url);
    await appReady(page);
    await page.reload();
    await appReady(page);
    await expect(page).toHaveURL(url);
    await expect(page.getByTestId('glossary').locator('h1')).toHaveText('Glossary');
    await expect(page.locator('[id="term-prefill"]')).toBeInViewport();
    // Links stay under the base.
    const back = await page.locator('[id="term-prefill"] a', { hasText: /^1\.4/ }).first().evaluate((a) => a.href);
    expect(back.startsWith(`${origin}${base}`)).toBe(true);
    // A lesson's term link points under the base too.
    const lessonHtml = await (await request.get(`${origin}${base}latency-and-throughput/`)).text();
    expect(lessonHtml).toContain('href="glossary/#term-prefill"');
    expect(lessonHtml).toContain(`<base href="${base}"`);
    // Without JavaScript: the pre-rendered page, its own title and description.
    const context = await browser.newContext({ javaScriptEnabled: false });
    const plain = await context.newPage();
    await plain.goto(url);
    await expect(plain.locator('main h1')).toHaveText('Glossary');
    await expect(plain).toHaveTitle(/^Glossary · /);
    const description = await plain.locator('meta[name="description"]').getAttribute('content');
    expect(description).toMatch(/term/i);
    await expect(plain.locator('[id="term-prefill"]')).toBeInViewport();
    await expect(plain.locator('nav#toc [data-testid="glossary-link"]')).toHaveAttribute('aria-current', 'page');
    // And a term's tooltip works with CSS alone.
    await plain.goto(`${origin}${base}latency-and-throughput/`);
    const term = plain.locator('article a.term[data-term="prefill"]');
    await term.hover();
    await expect(await tipOf(term)).toBeVisible();
    await context.close();
  });
}

test('the glossary is precached for offline reading and printed with the chapter', async ({ page, request }) => {
  const sw = await (await request.get('/sw.js')).text();
  expect(sw).toContain('"glossary/index.html"');
  await page.goto('/print/');
  await appReady(page);
  const section = page.locator('section.print-glossary');
  await expect(section.locator('h2')).toHaveText('Glossary');
  await expect(section.locator('.glossary-entry').first()).toBeAttached();
  // Tooltips do not print.
  await page.emulateMedia({ media: 'print' });
  const term = page.locator('article a.term[data-term]').first();
  await term.focus();
  await expect(await tipOf(term)).toBeHidden();
});

test('batching, embedding, attention and product-market fit are defined where the lessons use them; decode is per sequence', async ({ page }) => {
  const errors = watchErrors(page);
  for (const [slug, id] of [
    ['about-your-app', 'batching'],
    ['about-your-app', 'embedding'],
    ['model-selection', 'attention'],
    ['model-selection', 'product-market-fit'],
    ['why-size-wins', 'batching'],
  ]) {
    await page.goto(`/${slug}/`);
    await appReady(page);
    const term = page.locator(`article a.term[data-term="${id}"]`);
    await expect(term, `${slug} marks ${id}`).toHaveCount(1);
    expect((await (await tipOf(term)).textContent()).trim()).toMatch(/^[A-Z].{30,}\.$/);
  }
  await page.goto('/glossary/');
  await appReady(page);
  await expect(page.locator('[id="term-batching"] dd p').first()).toContainText('each read of the weights serves every sequence in the batch');
  await expect(page.locator('[id="term-decode"] dd p').first()).toContainText('for one sequence each step reads every weight');
  for (const id of ['embedding', 'attention', 'product-market-fit', 'lora', 'bf16', 'inter-token-latency']) {
    await expect(page.locator(`[id="term-${id}"]`), id).toHaveCount(1);
  }
  expect(errors).toEqual([]);
});
