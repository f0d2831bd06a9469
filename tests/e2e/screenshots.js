// Screenshots of pages at 1280 and 375 px, light and dark, for a person to look at.
//   node tests/e2e/screenshots.js [out-dir] [path ...]    (serves nothing: start a static server on :4180, or set SHOTS_ORIGIN)
const { chromium } = require('@playwright/test');

(async () => {
  const [out = '/tmp/shots', ...paths] = process.argv.slice(2);
  const pages = paths.length ? paths : ['/', '/overview/', '/model-selection/'];
  require('fs').mkdirSync(out, { recursive: true });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  for (const scheme of ['light', 'dark']) {
    for (const width of [1280, 375]) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
      const page = await context.newPage();
      for (const path of pages) {
        const [p, hash] = path.split('#');
        await page.goto((process.env.SHOTS_ORIGIN || 'http://127.0.0.1:4180') + path);
        await page.locator('[data-testid="theme-toggle"]').waitFor();
        // The app scrolls to the heading itself.
        await page.waitForTimeout(150);
        const name = `${(p.replace(/\//g, '_') || '_')}${hash ? '-' + hash : ''}-${width}-${scheme}.png`;
        await page.screenshot({ path: `${out}/${name}`, fullPage: false });
      }
      await context.close();
    }
  }
  await browser.close();
})();
