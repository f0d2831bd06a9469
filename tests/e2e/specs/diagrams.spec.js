// The diagrams: every lesson opens, every diagram draws, nodes are selected by mouse and by
// keyboard and explain themselves, the decision path draws its loops back to the evals, and a
// chapter-map leaf opens the section that explains it.
const { test, expect } = require('@playwright/test');
const { lessonsOf, watchErrors, appReady, SUB_ORIGIN } = require('./course');

async function open(page, slug) {
  await page.goto(`/${slug}/`);
  await appReady(page);
}

/** The diagram `name`, scrolled into view. */
async function diagram(page, name) {
  const d = page.getByTestId(`diagram-${name}`);
  await d.scrollIntoViewIfNeeded();
  await expect(d.locator('svg')).toBeVisible();
  return d;
}

const DIAGRAMS = [
  // [lesson, diagram, node picked by mouse, text it shows, node picked by keyboard, text it shows]
  ['overview', 'five-inputs', 'traffic', 'paying per token or paying for GPU time', 'online', 'latency is the target'],
  ['model-selection', 'fine-tune-diagram', 'pretrained', '6 GB of weights in FP16', 'general', '50 to 100 times smaller'],
  ['model-selection', 'distill-diagram', 'soft-targets', '0.70, 0.20, 0.07, 0.03', 'teacher', 'its own weights are not trained'],
  ['model-selection', 'decision-path', 'shortlist', 'one job they do well', 'fine-tune', 'run the evals again'],
];

test('every lesson opens and reads from "What you will be able to do" to "Key points"', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await appReady(page);
  const lessons = await lessonsOf(page);
  expect(lessons.length).toBe(9);
  for (const { slug } of lessons) {
    await open(page, slug);
    const headings = page.locator('[data-testid="lesson"] h2');
    await expect(headings.first()).toHaveText(/What you will be able to do$/);
    await expect(headings.last()).toHaveText(/Key points$/);
  }
  expect(errors).toEqual([]);
});

for (const [lesson, name, mouseNode, mouseText, keyNode, keyText] of DIAGRAMS) {
  test(`${name}: a node selected by mouse or keyboard explains itself`, async ({ page }) => {
    const errors = watchErrors(page);
    await open(page, lesson);
    const d = await diagram(page, name);
    const detail = d.getByTestId('diagram-detail');
    await expect(detail).toContainText('Select');
    // The text alternative names the diagram and describes it in words.
    await expect(d.getByRole('group', { name: /./ })).toHaveAttribute('aria-describedby', /.+/);
    const describedBy = await d.locator('svg').getAttribute('aria-describedby');
    expect((await page.locator(`[id="${describedBy}"]`).textContent()).length).toBeGreaterThan(60);

    const byMouse = d.locator(`[data-node="${mouseNode}"]`);
    await byMouse.click();
    await expect(byMouse).toHaveAttribute('aria-pressed', 'true');
    await expect(detail).toContainText(mouseText);

    // Keyboard: Tab reaches the nodes, Enter and Space select.
    const byKey = d.locator(`[data-node="${keyNode}"]`);
    await byKey.focus();
    await expect(byKey).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(byKey).toHaveAttribute('aria-pressed', 'true');
    await expect(byMouse).toHaveAttribute('aria-pressed', 'false');
    await expect(detail).toContainText(keyText);
    await byMouse.focus();
    await page.keyboard.press('Space');
    await expect(detail).toContainText(mouseText);
    await page.keyboard.press('Tab');
    await expect(d.locator('[data-node]:focus')).toHaveCount(1);
    expect(errors).toEqual([]);
  });
}

test('every node of every diagram is a named, focusable control with an explanation', async ({ page }) => {
  for (const [lesson, name] of DIAGRAMS) {
    await open(page, lesson);
    const d = await diagram(page, name);
    const nodes = d.locator('[data-node][role="button"]');
    const count = await nodes.count();
    expect(count).toBeGreaterThanOrEqual(3);
    for (let i = 0; i < count; i++) {
      const node = nodes.nth(i);
      await expect(node).toHaveAttribute('tabindex', '0');
      await expect(node).toHaveAccessibleName(/\w/);
      await node.focus();
      await page.keyboard.press('Enter');
      const text = await d.getByTestId('diagram-detail').textContent();
      expect(text.length).toBeGreaterThan(40);
    }
  }
});

test('the decision path has all its steps and draws both loops back to the evals', async ({ page }) => {
  await open(page, 'model-selection');
  const d = await diagram(page, 'decision-path');
  for (const id of ['define-evals', 'shortlist', 'run-evals', 'smallest-passes', 'deploy', 'fine-tune', 'distill']) {
    await expect(d.locator(`[data-node="${id}"]`)).toBeVisible();
  }
  await expect(d.locator('path.dedge.loop')).toHaveCount(2);
  await expect(d.locator('text.dedge-label.loop')).toHaveText(['evals again', 'evals again']);
  await d.locator('[data-node="smallest-passes"]').click();
  await expect(d.getByTestId('diagram-detail')).toContainText('yes, close, or only a large model');
  await d.locator('[data-node="deploy"]').click();
  await expect(d.getByTestId('diagram-detail')).toContainText('quantization');
});

test('diagrams follow the theme colours', async ({ page }) => {
  await open(page, 'overview');
  const d = await diagram(page, 'five-inputs');
  const fill = () => d.locator('[data-node="traffic"] .dnode-shape').evaluate((el) => getComputedStyle(el).fill);
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));
  const light = await fill();
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
  // Colours may ease into the new theme: wait for the fill to settle on another value.
  await expect.poll(fill).not.toEqual(light);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 } });
  test('diagrams switch to their narrow layout and still select by tap', async ({ page }) => {
    await open(page, 'model-selection');
    const d = await diagram(page, 'decision-path');
    await expect(d.locator('svg')).toHaveAttribute('data-layout', 'narrow');
    const box = await d.locator('svg').boundingBox();
    expect(box.width).toBeLessThanOrEqual(375);
    await d.locator('[data-node="distill"]').click();
    await expect(d.getByTestId('diagram-detail')).toContainText('student');
  });
});

test('a diagram follows the width of its box as the window changes', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page, 'model-selection');
  const d = await diagram(page, 'decision-path');
  const svg = d.locator('svg');
  await expect(svg).toHaveAttribute('data-layout', 'wide');
  // A diagram off the screen is not rendered (`.drawn`: content-visibility: auto), so its box is
  // not measured until the reader comes to it; a narrower window makes the text above it longer
  // and can push it off, so the test looks at it again, as a reader would. It scrolls to the
  // diagram, not to its <svg>: coming into view swaps the <svg> for the other layout's, and a
  // scroll still holding the old one fails on a detached element (once on CI).
  await page.setViewportSize({ width: 400, height: 800 });
  await d.scrollIntoViewIfNeeded();
  await expect(svg).toHaveAttribute('data-layout', 'narrow');
  await page.setViewportSize({ width: 1000, height: 800 });
  await d.scrollIntoViewIfNeeded();
  await expect(svg).toHaveAttribute('data-layout', 'wide');
});

test('chapter map: one branch per section, and a leaf opens its section', async ({ page }) => {
  const errors = watchErrors(page);
  await open(page, 'chapter-map');
  const d = await diagram(page, 'chapter-map');
  await expect(d.locator('.dnode.branch')).toHaveCount(4);
  await expect(d.locator('.dnode.branch')).toContainText(['1.1', '1.2', '1.3', '1.4']);
  const leaf = d.locator('[data-node="smallest-that-passes"]');
  await expect(leaf).toHaveAttribute('href', 'model-selection/#example-5-a-decision-path');
  await leaf.click();
  await expect(page).toHaveURL(/\/model-selection\/#example-5-a-decision-path$/);
  await expect(page.locator('[data-testid="lesson"] h1')).toHaveText(/Model selection/);
  await expect(page.locator('#example-5-a-decision-path')).toBeInViewport();

  // By keyboard: focus shows where the leaf leads; Enter opens it.
  await page.goBack();
  const d2 = await diagram(page, 'chapter-map');
  const pct = d2.locator('[data-node="percentiles"]');
  await pct.focus();
  await expect(d2.getByTestId('diagram-detail')).toContainText('Latency percentiles');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/latency-and-throughput\/#latency-percentiles$/);
  await expect(page.locator('#latency-percentiles')).toBeInViewport();

  // A branch opens its lesson from the top.
  await page.goBack();
  const d3 = await diagram(page, 'chapter-map');
  await d3.locator('[data-node="section-1-2"]').focus();
  await page.keyboard.press('Space');
  await expect(page).toHaveURL(/\/about-your-app\/$/);
  expect(errors).toEqual([]);
});

test('chapter-map links resolve under a sub-path', async ({ page }) => {
  await page.goto(`${SUB_ORIGIN}/some/sub/path/chapter-map/`);
  await appReady(page);
  const d = await diagram(page, 'chapter-map');
  await d.locator('[data-node="evals-decide"]').click();
  await expect(page).toHaveURL(`${SUB_ORIGIN}/some/sub/path/model-selection/#example-2-evals-over-benchmarks`);
});

// The diagrams are drawn by the build and answered by a small script of their own, not by a
// widgets module (src/app/diagrams.rs, js/diagrams.js).
test('a diagram is in the page as the build wrote it, and answers without any wasm', async ({ page }) => {
  const errors = watchErrors(page);
  let wasm = 0;
  await page.route('**/*.wasm', (route) => {
    wasm += 1;
    return route.abort();
  });
  await page.goto('/overview/');
  const d = page.getByTestId('diagram-five-inputs');
  await expect(d.locator('svg')).toBeVisible();
  await expect(d.getByTestId('diagram-detail')).toContainText('Select');
  await d.locator('[data-node="traffic"]').click();
  await expect(d.locator('[data-node="traffic"]')).toHaveAttribute('aria-pressed', 'true');
  await expect(d.getByTestId('diagram-detail')).toContainText('paying per token or paying for GPU time');
  await d.locator('[data-node="online"]').focus();
  await page.keyboard.press('Enter');
  await expect(d.locator('[data-node="traffic"]')).toHaveAttribute('aria-pressed', 'false');
  await expect(d.getByTestId('diagram-detail')).toContainText('latency is the target');
  expect(wasm).toBeGreaterThan(0);
  // The aborted wasm is the page's own failure to report, not the diagram's.
  expect(errors.filter((e) => !/wasm|fetch|compile|instantiate|failed to load resource/i.test(e))).toEqual([]);
});

test('read without JavaScript, a diagram still shows its picture, its words and its hint', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/model-selection/');
  const d = page.getByTestId('diagram-decision-path');
  await expect(d.locator('svg')).toBeVisible();
  await expect(d.locator('svg')).toHaveAttribute('data-layout', 'wide');
  await expect(d.locator('[data-node="shortlist"]')).toBeVisible();
  await expect(d.getByTestId('diagram-detail')).toContainText('Select');
  const describedBy = await d.locator('svg').getAttribute('aria-describedby');
  expect((await page.locator(`[id="${describedBy}"]`).textContent()).length).toBeGreaterThan(60);
  await context.close();
});

test.describe('on a phone, after a move in the app', () => {
  test.use({ viewport: { width: 375, height: 740 } });
  test('a diagram that came with a fetched page fits the phone and answers', async ({ page }) => {
    const errors = watchErrors(page);
    await page.goto('/');
    await appReady(page);
    await page.getByTestId('menu-button').click();
    await page.locator('nav#toc a[href$="chapter-map/"]').click();
    const d = await diagram(page, 'chapter-map');
    await expect(d.locator('svg')).toHaveAttribute('data-layout', 'narrow');
    // The widgets' stylesheet came with it: the nodes have the theme's colours, not black.
    const fill = () => d.locator('.dnode.branch .dnode-shape').first().evaluate((el) => getComputedStyle(el).fill);
    await expect.poll(fill).not.toBe('rgb(0, 0, 0)');
    const pct = d.locator('[data-node="percentiles"]');
    await pct.focus();
    await expect(d.getByTestId('diagram-detail')).toContainText('Latency percentiles');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/latency-and-throughput\/#latency-percentiles$/);
    expect(errors).toEqual([]);
  });

  test('a diagram is first painted in its narrow layout, and a selection survives a change of layout', async ({ page }) => {
    // What each animation frame would paint (frames run before the layout is fitted too).
    await page.addInitScript(() => {
      const seen = (window.__layouts = []);
      const look = () => {
        const svg = document.querySelector('[data-testid="diagram-five-inputs"] .diagram-box > svg');
        if (svg) seen.push(svg.getAttribute('data-layout'));
        if (seen.length < 30) requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    });
    await page.goto('/overview/');
    const d = page.getByTestId('diagram-five-inputs');
    await expect(d.locator('svg')).toHaveAttribute('data-layout', 'narrow');
    // The page puts the layout in as it is read (a line of script after the diagram's
    // templates): no frame ever holds the wide one.
    const paints = await page.evaluate(() => window.__layouts);
    expect(paints.length, 'frames that held the diagram').toBeGreaterThan(0);
    expect(paints.every((l) => l === 'narrow'), paints.join(' ')).toBe(true);
    await d.locator('[data-node="traffic"]').click();
    await page.setViewportSize({ width: 1280, height: 740 });
    await expect(d.locator('svg')).toHaveAttribute('data-layout', 'wide');
    await expect(d.locator('[data-node="traffic"]')).toHaveAttribute('aria-pressed', 'true');
    await expect(d.getByTestId('diagram-detail')).toContainText('paying per token or paying for GPU time');
    await expect(d.locator('svg')).toHaveCount(1);
  });
});
